// Preloaded by scripts/perf_guard.sh into the program valgrind runs, never into a shipped binary.
//
// Why: libdispatch's main thread ends in sigsuspend() with a mask in read-only memory (a static
// const), and valgrind 3.19 (Debian 12's) writes to the mask it is given, so it dies with an
// internal SIGSEGV when any `stickers` command finishes. Passing a writable copy to the same
// system call changes nothing for the program.
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
