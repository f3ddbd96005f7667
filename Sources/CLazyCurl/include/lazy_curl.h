#ifndef STICKERS_LAZY_CURL_H
#define STICKERS_LAZY_CURL_H

/// Nothing to call: this target only defines, in the release CLI, the libcurl functions the static
/// FoundationNetworking calls, each loading libcurl.so.4 at its first use (see lazy_curl.c).

#endif
