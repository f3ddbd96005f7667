// The libcurl functions the static FoundationNetworking calls (URLSession: the APOD client),
// each binding to the system's libcurl.so.4 at its first call instead of at process start.
//
// Why: linked normally, libcurl and the ~30 libraries it needs (TLS, Kerberos, LDAP, IDN…) are
// loaded and relocated by every `stickers` process, ~5 ms of each one-photo command that never
// touches the network (`stickers --help` 12.1 → 7.3 ms; an empty C program: 2.3 ms, linked to
// libcurl: 6.4 ms). Only the release CLI, whose Foundation is static, defines these
// (STICKERS_LAZY_CURL, set in Package.swift); elsewhere FoundationNetworking is a shared library
// that brings libcurl itself.
//
// No curl headers are needed (machines here have libcurl.so.4 but not its development files):
// every argument is a pointer or an integer, and the options of the variadic setopt/getinfo calls
// carry exactly one pointer-sized argument (a long, a pointer or a 64-bit curl_off_t: one integer
// register or stack slot on LP64), so it is forwarded as a void *. A machine without libcurl gets a
// clear message and exit status 69 (unavailable) at the first network call, not a binary that
// cannot start. That call is the first URLSession made: `catalog` and `serve` (whose Space tab
// makes its session at start) need libcurl from their start, as before this shim; `sticker`,
// `palette` and `make` never load it.
#if defined(STICKERS_LAZY_CURL)

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lazy_curl.h"

static void *library;
static char load_error[512];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load_library(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *message = dlerror();  // thread-local: kept for the thread that reports it
        snprintf(load_error, sizeof load_error, "%s", message ? message : "not found");
    }
}

/// The address of libcurl's `name`, loading the library on first use; exits if it cannot be had.
static void *resolve(const char *name) {
    pthread_once(&load_once, load_library);
    void *symbol = library ? dlsym(library, name) : NULL;
    if (!symbol) {
        fprintf(stderr, "stickers: network access needs libcurl (%s%s); install it (Debian: apt-get install libcurl4)\n",
                library ? "missing " : "", library ? name : load_error);
        exit(69);
    }
    return symbol;
}

// Each forwarder resolves once; a race resolves twice to the same address (atomic, so harmless).
#define LAZY(name) \
    static void *name##_address; \
    void *name##_target = __atomic_load_n(&name##_address, __ATOMIC_ACQUIRE); \
    if (!name##_target) { name##_target = resolve(#name); __atomic_store_n(&name##_address, name##_target, __ATOMIC_RELEASE); }

// Hidden: the executable is linked with --export-dynamic, and an exported curl_* of ours would
// also be what libcurl's own calls to its public functions bind to once it is loaded (the
// executable comes first in the global scope). Hidden, they serve only the static Foundation.
#define HIDDEN __attribute__((visibility("hidden")))

#define FORWARD(result, name, parameters, arguments) \
    HIDDEN result name parameters { LAZY(name) return ((result (*) parameters)name##_target) arguments; }
#define FORWARD_VOID(name, parameters, arguments) \
    HIDDEN void name parameters { LAZY(name) ((void (*) parameters)name##_target) arguments; }

FORWARD(void *, curl_easy_init, (void), ())
FORWARD_VOID(curl_easy_cleanup, (void *handle), (handle))
FORWARD(int, curl_easy_pause, (void *handle, int bitmask), (handle, bitmask))
FORWARD(const char *, curl_easy_strerror, (int code), (code))
FORWARD_VOID(curl_free, (void *pointer), (pointer))
FORWARD(int, curl_global_init, (long flags), (flags))
FORWARD(void *, curl_multi_init, (void), ())
FORWARD(int, curl_multi_cleanup, (void *multi), (multi))
FORWARD(int, curl_multi_add_handle, (void *multi, void *handle), (multi, handle))
FORWARD(int, curl_multi_remove_handle, (void *multi, void *handle), (multi, handle))
FORWARD(int, curl_multi_assign, (void *multi, int socket, void *pointer), (multi, socket, pointer))
FORWARD(void *, curl_multi_info_read, (void *multi, int *queued), (multi, queued))
FORWARD(int, curl_multi_socket_action, (void *multi, int socket, int events, int *running), (multi, socket, events, running))
FORWARD(void *, curl_slist_append, (void *list, const char *string), (list, string))
FORWARD_VOID(curl_slist_free_all, (void *list), (list))
FORWARD(void *, curl_url, (void), ())
FORWARD(int, curl_url_get, (const void *url, int part, char **value, unsigned flags), (url, part, value, flags))
FORWARD(int, curl_url_set, (void *url, int part, const char *value, unsigned flags), (url, part, value, flags))
FORWARD(char *, curl_version, (void), ())
FORWARD(void *, curl_version_info, (int age), (age))

#define FORWARD_ONE_VARIADIC(name, handleType, selectorType) \
    HIDDEN int name(handleType handle, selectorType selector, ...) { \
        LAZY(name) \
        va_list rest; va_start(rest, selector); void *argument = va_arg(rest, void *); va_end(rest); \
        return ((int (*)(handleType, selectorType, ...))name##_target)(handle, selector, argument); \
    }

FORWARD_ONE_VARIADIC(curl_easy_setopt, void *, int)
FORWARD_ONE_VARIADIC(curl_easy_getinfo, void *, int)
FORWARD_ONE_VARIADIC(curl_multi_setopt, void *, int)

#endif
