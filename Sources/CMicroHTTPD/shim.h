#ifndef EKI_CMICROHTTPD_SHIM_H
#define EKI_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, which Swift
   cannot call. The wrappers below fix their arguments: options go through MHD_OPTION_ARRAY (an
   array of MHD_OptionItem ending with MHD_OPTION_END), as libmicrohttpd documents. */

/** The settings eki_mhd_start passes to MHD_start_daemon. */
struct eki_mhd_settings {
    int ipv6;                       /* the address is IPv6 */
    unsigned int threads;           /* MHD_OPTION_THREAD_POOL_SIZE */
    size_t connection_memory;       /* MHD_OPTION_CONNECTION_MEMORY_LIMIT, bytes */
    unsigned int connection_limit;  /* MHD_OPTION_CONNECTION_LIMIT */
    unsigned int per_ip_limit;      /* MHD_OPTION_PER_IP_CONNECTION_LIMIT; 0: none */
    unsigned int timeout;           /* MHD_OPTION_CONNECTION_TIMEOUT, seconds */
    unsigned int backlog;           /* MHD_OPTION_LISTEN_BACKLOG_SIZE */
    const struct sockaddr *address; /* MHD_OPTION_SOCK_ADDR (only read during the call) */
    const char *tls_cert;           /* PEM text: MHD_USE_TLS with MHD_OPTION_HTTPS_MEM_CERT; NULL: plain HTTP */
    const char *tls_key;            /* PEM text: MHD_OPTION_HTTPS_MEM_KEY (with tls_cert) */
};

static inline size_t eki_mhd_no_unescape(void *cls, struct MHD_Connection *c, char *s);

/** MHD_start_daemon with an internal epoll thread pool and the settings above; the options go
    through MHD_OPTION_ARRAY. Paths and query values reach the handler undecoded
    (eki_mhd_no_unescape). `completed` (MHD_OPTION_NOTIFY_COMPLETED) gets `cls` too. With
    tls_cert and tls_key, HTTPS through libmicrohttpd's own TLS (GnuTLS); libmicrohttpd copies
    neither text it needs after the call, so they must outlive the daemon.
    NULL when the daemon cannot start (errno says why). */
static inline struct MHD_Daemon *eki_mhd_start(const struct eki_mhd_settings *s,
                                               MHD_AccessHandlerCallback handler,
                                               MHD_RequestCompletedCallback completed, void *cls) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC;
    if (s->ipv6) flags |= MHD_USE_IPv6;
    int tls = s->tls_cert != NULL && s->tls_key != NULL;
    if (tls) flags |= MHD_USE_TLS;
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)s->threads, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)s->connection_memory, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, (intptr_t)s->connection_limit, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)s->per_ip_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)s->timeout, NULL },
        { MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)s->backlog, NULL },
        { MHD_OPTION_SOCK_ADDR, 0, (void *)s->address },
        { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)&eki_mhd_no_unescape, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, cls },
        /* Without TLS the list ends here. */
        { tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, (void *)s->tls_cert },
        { tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, (void *)s->tls_key },
        { MHD_OPTION_END, 0, NULL },
    };
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/** Whether this libmicrohttpd was built with TLS (MHD_FEATURE_TLS). */
static inline int eki_mhd_has_tls(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }

/** The address of the client of `c` as text (inet_ntop: `192.0.2.1`, `2001:db8::1`) in `out`
    (`size` bytes, 46 is enough); 0 when it is not known, 1 when written. */
static inline int eki_mhd_client_address(struct MHD_Connection *c, char *out, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return 0;
    const struct sockaddr *a = info->client_addr;
    const void *bytes = NULL;
    if (a->sa_family == AF_INET) bytes = &((const struct sockaddr_in *)a)->sin_addr;
    else if (a->sa_family == AF_INET6) bytes = &((const struct sockaddr_in6 *)a)->sin6_addr;
    if (!bytes || !inet_ntop(a->sa_family, bytes, out, size)) return 0;
    return 1;
}

/** MHD_YES and MHD_NO as values of the callbacks' result type. */
static inline enum MHD_Result eki_mhd_yes(void) { return MHD_YES; }
static inline enum MHD_Result eki_mhd_no(void) { return MHD_NO; }

/** Request header fields and query arguments, for MHD_get_connection_values. */
static inline enum MHD_ValueKind eki_mhd_header_kind(void) { return MHD_HEADER_KIND; }
static inline enum MHD_ValueKind eki_mhd_query_kind(void) { return MHD_GET_ARGUMENT_KIND; }

/** A response whose body libmicrohttpd copies (MHD_RESPMEM_MUST_COPY). */
static inline struct MHD_Response *eki_mhd_response_copy(const void *data, size_t size) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}

/** The connections the daemon holds open now (MHD_DAEMON_INFO_CURRENT_CONNECTIONS, summed over
    the worker threads); 0 when unknown. */
static inline unsigned int eki_mhd_current_connections(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

/** The port the daemon listens on (useful after binding port 0); 0 when unknown. */
static inline uint16_t eki_mhd_bound_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/** MHD_OPTION_UNESCAPE_CALLBACK that leaves text as it is: the server decodes the path and the
    query itself, so that an encoded slash (%2F) can be told from a real one. */
static inline size_t eki_mhd_no_unescape(void *cls, struct MHD_Connection *c, char *s) {
    (void)cls; (void)c;
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

#endif
