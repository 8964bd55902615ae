#ifndef EKI_CCURL_SHIM_H
#define EKI_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. Each wrapper
   below fixes the type of the third argument; use the one that matches the option's
   documented type (CURLOPTTYPE_LONG, _STRINGPOINT, _OBJECTPOINT, _FUNCTIONPOINT, _OFF_T). */

/** curl_global_init(CURL_GLOBAL_DEFAULT): the macro is not importable as one value. */
static inline CURLcode eki_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

static inline CURLcode eki_curl_setopt_long(CURL *h, CURLoption o, long v) {
    return curl_easy_setopt(h, o, v);
}
/** String options: libcurl copies the string (since 7.17), so it need not outlive the call. */
static inline CURLcode eki_curl_setopt_string(CURL *h, CURLoption o, const char *v) {
    return curl_easy_setopt(h, o, v);
}
/** Object pointers (WRITEDATA, HTTPHEADER, ERRORBUFFER): the caller keeps them alive. */
static inline CURLcode eki_curl_setopt_pointer(CURL *h, CURLoption o, void *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode eki_curl_setopt_write_callback(CURL *h, CURLoption o, curl_write_callback cb) {
    return curl_easy_setopt(h, o, cb);
}
static inline CURLcode eki_curl_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) {
    return curl_easy_setopt(h, o, v);
}

static inline CURLcode eki_curl_getinfo_long(CURL *h, CURLINFO i, long *out) {
    return curl_easy_getinfo(h, i, out);
}
/** The string belongs to the handle and is valid until the next transfer or cleanup. */
static inline CURLcode eki_curl_getinfo_string(CURL *h, CURLINFO i, char **out) {
    return curl_easy_getinfo(h, i, out);
}
static inline CURLcode eki_curl_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *out) {
    return curl_easy_getinfo(h, i, out);
}
#endif
