#ifndef COSMIUM_H
#define COSMIUM_H

/* A plain C view of libosmium's OpenStreetMap PBF reader: the one place the project calls
 * libosmium (C++). Every libosmium exception is caught here and turned into an error string;
 * none crosses this interface. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types, as bits for cosm_open's `types` and as values of cosm_element.type. */
enum {
    COSM_NODE = 1,
    COSM_WAY = 2,
    COSM_RELATION = 4
};

/* One node, way or relation. Every pointer stays valid until the next cosm_next or
 * cosm_close on the same reader. Texts are NUL-terminated UTF-8. */
typedef struct cosm_element {
    int type;                 /* COSM_NODE, COSM_WAY or COSM_RELATION */
    int64_t id;
    int has_location;         /* nodes: 1 when the node has a position */
    int32_t x, y;             /* nodes: longitude, latitude in units of 1e-7 degree */
    size_t tag_count;
    const char *const *keys;
    const char *const *values;
    size_t ref_count;         /* ways: node ids in order */
    const int64_t *refs;
    size_t member_count;      /* relations: members in order */
    const int *member_types;  /* COSM_NODE, COSM_WAY or COSM_RELATION */
    const int64_t *member_refs;
    const char *const *member_roles;
} cosm_element;

typedef struct cosm_reader cosm_reader;

/* Opens `path` as OSM PBF, reading only the element types in `types` (COSM_* bits); object
 * metadata (version, user, timestamp) is not decoded. Returns NULL on failure with a message in
 * `error` (at most `error_size` bytes, NUL-terminated). */
cosm_reader *cosm_open(const char *path, int types, char *error, size_t error_size);

/* Whether the file's header says it holds several versions of objects (a history file). */
int cosm_is_history(const cosm_reader *reader);

/* The next element: 1 with `out` filled, 0 at the end of the file, -1 on error (truncated or
 * corrupt data, unreadable file) with a message in `error`. */
int cosm_next(cosm_reader *reader, cosm_element *out, char *error, size_t error_size);

/* Node filters for cosm_filter_nodes. */
enum {
    COSM_ALL_NODES = 0,     /* every node is returned (the default) */
    COSM_PLAIN_NODES = 1,   /* nodes without tags are left out when their position is absent, or
                               in range and not (0, 0): the rest (tags, a position to refuse) are
                               returned */
    COSM_WANTED_NODES = 2   /* only nodes whose id is wanted; the end of the input is reported
                               once each wanted id has been returned */
};

/* Sets the node filter `mode` (COSM_*_NODES) with the `count` wanted ids at `wanted` (copied;
 * any order, repeats allowed; used by COSM_WANTED_NODES). 0 on success, -1 when out of memory. */
int cosm_filter_nodes(cosm_reader *reader, int mode, const int64_t *wanted, size_t count);

/* Stops the reader's threads and frees everything; NULL is allowed. */
void cosm_close(cosm_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
