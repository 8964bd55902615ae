// The C interface of cosmium.h over libosmium's PBF reader (osmium::io::Reader with the PBF
// input format only: no XML, o5m or compression libraries are linked).

#include "cosmium.h"

#include <osmium/io/pbf_input.hpp>
#include <osmium/thread/pool.hpp>
#include <osmium/osm/node.hpp>
#include <osmium/osm/relation.hpp>
#include <osmium/osm/way.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <thread>
#include <string>
#include <vector>

struct cosm_reader {
    // Declared before the reader, so that it is destroyed after it.
    std::unique_ptr<osmium::thread::Pool> pool;
    std::unique_ptr<osmium::io::Reader> reader;
    osmium::memory::Buffer buffer;
    osmium::memory::Buffer::t_iterator<osmium::OSMObject> it;
    osmium::memory::Buffer::t_iterator<osmium::OSMObject> end;
    bool history = false;
    bool finished = false;
    // The current element's arrays.
    std::vector<const char *> keys, values, roles;
    std::vector<int64_t> refs, member_refs;
    std::vector<int> member_types;
    // cosm_filter_nodes: the mode, and the sorted wanted ids with whether each was seen.
    int node_filter = COSM_ALL_NODES;
    std::vector<int64_t> wanted_nodes;
    std::vector<bool> wanted_seen;
    size_t wanted_left = 0;
};

// The index of `id` in the wanted ids, or -1.
static long wanted_index(const cosm_reader *r, int64_t id) {
    auto it = std::lower_bound(r->wanted_nodes.begin(), r->wanted_nodes.end(), id);
    return it != r->wanted_nodes.end() && *it == id ? static_cast<long>(it - r->wanted_nodes.begin()) : -1;
}

// Whether the node filter leaves `object` out (see cosm_filter_nodes).
static bool filtered_out(cosm_reader *r, const osmium::OSMObject &object) {
    if (object.type() != osmium::item_type::node) return false;
    if (r->node_filter == COSM_WANTED_NODES) {
        long i = wanted_index(r, object.id());
        if (i < 0) return true;
        if (!r->wanted_seen[i]) {
            r->wanted_seen[i] = true;
            --r->wanted_left;
        }
        return false;
    }
    if (!object.tags().empty()) return false;
    const auto &location = static_cast<const osmium::Node &>(object).location();
    if (!location.is_defined()) return true;
    const int32_t x = location.x(), y = location.y();
    return x >= -1800000000 && x <= 1800000000 && y >= -900000000 && y <= 900000000 && !(x == 0 && y == 0);
}

static void set_error(char *error, size_t size, const char *message) {
    if (error == nullptr || size == 0) return;
    std::snprintf(error, size, "%s", message);
}

static int type_bit(osmium::item_type t) {
    switch (t) {
    case osmium::item_type::node: return COSM_NODE;
    case osmium::item_type::way: return COSM_WAY;
    case osmium::item_type::relation: return COSM_RELATION;
    default: return 0;
    }
}

extern "C" cosm_reader *cosm_open(const char *path, int types, char *error, size_t error_size) {
    try {
        osmium::osm_entity_bits::type bits = osmium::osm_entity_bits::nothing;
        if (types & COSM_NODE) bits |= osmium::osm_entity_bits::node;
        if (types & COSM_WAY) bits |= osmium::osm_entity_bits::way;
        if (types & COSM_RELATION) bits |= osmium::osm_entity_bits::relation;
        auto r = std::make_unique<cosm_reader>();
        // One decoding thread per core (libosmium's default leaves two cores to the caller):
        // the caller mostly waits for decoded blocks.
        int threads = static_cast<int>(std::thread::hardware_concurrency());
        r->pool = std::make_unique<osmium::thread::Pool>(threads < 1 ? 1 : threads);
        r->reader = std::make_unique<osmium::io::Reader>(osmium::io::File{path, "pbf"}, bits,
                                                         osmium::io::read_meta::no, *r->pool);
        r->history = r->reader->header().has_multiple_object_versions();
        return r.release();
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown error opening the file");
    }
    return nullptr;
}

extern "C" int cosm_is_history(const cosm_reader *reader) {
    return reader != nullptr && reader->history ? 1 : 0;
}

static void fill(cosm_reader *r, const osmium::OSMObject &object, cosm_element *out) {
    std::memset(out, 0, sizeof *out);
    out->type = type_bit(object.type());
    out->id = object.id();
    r->keys.clear();
    r->values.clear();
    for (const auto &tag : object.tags()) {
        r->keys.push_back(tag.key());
        r->values.push_back(tag.value());
    }
    out->tag_count = r->keys.size();
    out->keys = r->keys.data();
    out->values = r->values.data();
    switch (object.type()) {
    case osmium::item_type::node: {
        const auto &location = static_cast<const osmium::Node &>(object).location();
        out->has_location = location.is_defined() ? 1 : 0;
        out->x = location.x();
        out->y = location.y();
        break;
    }
    case osmium::item_type::way: {
        r->refs.clear();
        for (const auto &nr : static_cast<const osmium::Way &>(object).nodes()) r->refs.push_back(nr.ref());
        out->ref_count = r->refs.size();
        out->refs = r->refs.data();
        break;
    }
    case osmium::item_type::relation: {
        r->member_types.clear();
        r->member_refs.clear();
        r->roles.clear();
        for (const auto &m : static_cast<const osmium::Relation &>(object).members()) {
            r->member_types.push_back(type_bit(m.type()));
            r->member_refs.push_back(m.ref());
            r->roles.push_back(m.role());
        }
        out->member_count = r->member_refs.size();
        out->member_types = r->member_types.data();
        out->member_refs = r->member_refs.data();
        out->member_roles = r->roles.data();
        break;
    }
    default:
        break;
    }
}

extern "C" int cosm_next(cosm_reader *r, cosm_element *out, char *error, size_t error_size) {
    try {
        while (true) {
            while (r->buffer && r->it != r->end) {
                const osmium::OSMObject &object = *r->it;
                ++r->it;
                if (type_bit(object.type()) == 0) continue;
                if (r->node_filter != COSM_ALL_NODES && filtered_out(r, object)) continue;
                fill(r, object, out);
                return 1;
            }
            if (r->finished) return 0;
            if (r->node_filter == COSM_WANTED_NODES && r->wanted_left == 0) {
                // Every wanted node has been returned: the rest of the file is not read.
                r->finished = true;
                return 0;
            }
            r->buffer = r->reader->read();
            if (!r->buffer) {
                r->finished = true;
                r->reader->close();
                return 0;
            }
            r->it = r->buffer.begin<osmium::OSMObject>();
            r->end = r->buffer.end<osmium::OSMObject>();
        }
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown error reading the file");
    }
    return -1;
}

extern "C" int cosm_filter_nodes(cosm_reader *r, int mode, const int64_t *wanted, size_t count) {
    try {
        r->wanted_nodes.assign(wanted, wanted + count);
        std::sort(r->wanted_nodes.begin(), r->wanted_nodes.end());
        r->wanted_nodes.erase(std::unique(r->wanted_nodes.begin(), r->wanted_nodes.end()), r->wanted_nodes.end());
        r->wanted_seen.assign(r->wanted_nodes.size(), false);
        r->wanted_left = r->wanted_nodes.size();
        r->node_filter = mode;
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" void cosm_close(cosm_reader *reader) {
    if (reader == nullptr) return;
    try {
        delete reader;
    } catch (...) {
    }
}
