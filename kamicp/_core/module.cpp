// The thin Python binding of kamicp's compiled core (the extension kamicp._fastsearch; kamicp/prover/search.py
// wraps it, and its pure-Python IDAStar is the reference the tests cross-check it against). Arguments are
// parsed here, by keyword, into the units' plain data (contraction.hpp's Board, ida.hpp's
// SearchSettings); the units know nothing of Python. Units, bottom up: contraction (regions of a
// colouring), bfs (searches over them), bounds (the sound lower bound), child_bounds (children decided
// at their parent), clusters (the cluster gathering cost), fail_table (transposition table), flood_astar
// (the fixed-pivot A*), pivot_test (the pivot relation at a node), ida (the search), heuristics (beam, rollout).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "flood_astar.hpp"
#include "heuristics.hpp"
#include "ida.hpp"
#include "katamino.hpp"

namespace {

using kamicp::Board;
using kamicp::Ida;
using kamicp::Outcome;
using kamicp::Plan;

const char *const CAPSULE = "kamicp._fastsearch.Search";

void destroy(PyObject *capsule) { delete static_cast<Ida *>(PyCapsule_GetPointer(capsule, CAPSULE)); }

// The search behind a handle from create() (nullptr with a Python error set when it is not one).
Ida *as_search(PyObject *cap) { return static_cast<Ida *>(PyCapsule_GetPointer(cap, CAPSULE)); }

bool to_int_list(PyObject *obj, std::vector<int> &out) {
    PyObject *seq = PySequence_Fast(obj, "expected a sequence of ints");
    if (!seq) return false;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    out.resize(len);
    for (Py_ssize_t i = 0; i < len; ++i) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return false;
        }
        out[i] = static_cast<int>(v);
    }
    Py_DECREF(seq);
    return true;
}

bool fail(const char *message) {
    PyErr_SetString(PyExc_ValueError, message);
    return false;
}

// adj (a sequence of neighbour sequences), start colours and the number of colours, checked, into adj/start
bool parse_board(PyObject *adj_obj, PyObject *start_obj, int K, std::vector<std::vector<int>> &adj,
                 std::vector<int> &start) {
    if (!to_int_list(start_obj, start)) return false;
    PyObject *seq = PySequence_Fast(adj_obj, "adj: expected a sequence");
    if (!seq) return false;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    adj.assign(n, {});
    bool ok = n == static_cast<Py_ssize_t>(start.size()) || fail("adj and start differ in length");
    for (Py_ssize_t i = 0; ok && i < n; ++i) {
        ok = to_int_list(PySequence_Fast_GET_ITEM(seq, i), adj[i]);
        for (int w : adj[i])
            if (ok && (w < 0 || w >= n)) ok = fail("adjacency index out of range");
    }
    Py_DECREF(seq);
    if (!ok) return false;
    if (K < 1 || K > 15) return fail("the compiled search supports 1..15 colours");
    for (int c : start)
        if (c < 0 || c >= K) return fail("colour index out of range");
    return true;
}

// The checked board of the (adj, start, num_colors) arguments every entry point takes; nullptr with a
// Python error set when they are not a board.
std::unique_ptr<Board> read_board(PyObject *adj_obj, PyObject *start_obj, int K) {
    std::vector<std::vector<int>> adj;
    std::vector<int> start;
    if (!parse_board(adj_obj, start_obj, K, adj, start)) return nullptr;
    return std::make_unique<Board>(adj, std::move(start), K);
}

// A plan as a Python list of (initial region, colour) tuples.
PyObject *plan_list(const Plan &moves) {
    PyObject *plan = PyList_New(0);
    for (auto &mv : moves) {
        PyObject *item = Py_BuildValue("(ii)", mv.first, mv.second);
        PyList_Append(plan, item);
        Py_DECREF(item);
    }
    return plan;
}

// The prior move (kamicp/prover/prior.py) into settings: the initial region holding it, the initial regions
// meeting N[P] (a sequence of indices) and its old colour, checked.
bool read_prior(int prior_min, PyObject *near_obj, int prior_color, int n, int K, kamicp::SearchSettings &s) {
    std::vector<int> near;
    if (near_obj == Py_None) return fail("prior_near: required with prior_min");
    if (!to_int_list(near_obj, near)) return false;
    if (prior_min >= n) return fail("prior_min: initial region out of range");
    if (prior_color < 0 || prior_color >= K) return fail("prior_color: colour index out of range");
    s.prior_near.assign(n, 0);
    for (int v : near) {
        if (v < 0 || v >= n) return fail("prior_near: initial region out of range");
        s.prior_near[v] = 1;
    }
    if (!s.prior_near[prior_min]) return fail("prior_near: must hold prior_min");
    s.prior_min = prior_min;
    s.prior_color = prior_color;
    return true;
}

PyObject *py_create(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"adj", "start", "num_colors", "table_limit", "por", "gather", "ring",
                                   "adjacent", "symmetry", "clusters", "prior_min", "prior_near", "prior_color",
                                   "pivot_regions", "pivot_slack", "pivot_cap", "pivot_layered", "useful", nullptr};
    PyObject *adj_obj, *start_obj, *sigma_obj = Py_None, *near_obj = Py_None;
    int K, por = 2, gather = 1, ring = 1, adjacent = 1, clusters = 0, prior_min = -1, prior_color = -1;
    long long table_limit = 3000000;
    kamicp::PivotSettings pivot;
    int layered = 1, useful = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOi|$LipppOiiOiiiLpp", const_cast<char **>(kwlist), &adj_obj,
                                     &start_obj, &K, &table_limit, &por, &gather, &ring, &adjacent, &sigma_obj,
                                     &clusters, &prior_min, &near_obj, &prior_color, &pivot.regions,
                                     &pivot.slack, &pivot.cap, &layered, &useful))
        return nullptr;
    pivot.layered = layered != 0;
    if (pivot.regions < 0 || pivot.regions > 64 || pivot.cap < 1)
        return fail("pivot: 0..64 regions and a cap >= 1"), nullptr;
    auto board = read_board(adj_obj, start_obj, K);
    if (!board) return nullptr;
    kamicp::SearchSettings settings;
    if (sigma_obj != Py_None) {
        if (!to_int_list(sigma_obj, settings.symmetry)) return nullptr;
        if (static_cast<int>(settings.symmetry.size()) != board->n)
            return fail("symmetry and start differ in length"), nullptr;
        for (int r : settings.symmetry)
            if (r < 0 || r >= board->n) return fail("symmetry index out of range"), nullptr;
    }
    if (clusters < 0 || clusters > 12) return fail("clusters: a sample of 0..12 regions"), nullptr;
    settings.clusters = clusters;
    if (prior_min >= 0 && !read_prior(prior_min, near_obj, prior_color, board->n, K, settings)) return nullptr;
    settings.table_limit = table_limit;
    settings.useful = useful != 0;
    settings.por = por;
    settings.adjacent = adjacent != 0;
    settings.rules = {gather != 0, ring != 0};
    settings.pivot = pivot;
    auto *s = new Ida(std::move(*board), std::move(settings));
    return PyCapsule_New(s, CAPSULE, destroy);
}

// set_stop(handle, address, length): the int array at `address` (shared memory the caller keeps alive as
// long as the handle) stops a search within horizon h once its entry h is non-zero; address 0 detaches.
PyObject *py_set_stop(PyObject *, PyObject *args) {
    PyObject *cap;
    unsigned long long address;
    int length;
    if (!PyArg_ParseTuple(args, "OKi", &cap, &address, &length)) return nullptr;
    Ida *s = as_search(cap);
    if (!s) return nullptr;
    s->attach_stop(reinterpret_cast<const volatile int *>(static_cast<uintptr_t>(address)), length);
    Py_RETURN_NONE;
}

// set_counter(handle, address): the int64 at `address` (shared memory the caller keeps alive as long as the
// handle) receives the search's node count every 256 nodes; address 0 detaches.
PyObject *py_set_counter(PyObject *, PyObject *args) {
    PyObject *cap;
    unsigned long long address;
    if (!PyArg_ParseTuple(args, "OK", &cap, &address)) return nullptr;
    Ida *s = as_search(cap);
    if (!s) return nullptr;
    s->attach_counter(reinterpret_cast<volatile long long *>(static_cast<uintptr_t>(address)));
    Py_RETURN_NONE;
}

// pivot_stats(handle) -> (nodes asked, pruned by the layered bound, A* asked, pruned by the A*, A* runs) of the
// pivot test so far (pivot_test.hpp)
PyObject *py_pivot_stats(PyObject *, PyObject *args) {
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O", &cap)) return nullptr;
    Ida *s = as_search(cap);
    if (!s) return nullptr;
    const auto &p = s->pivot();
    return Py_BuildValue("(LLLLL)", p.asked(), p.by_layered(), p.astar_asked(), p.by_astar(), p.astar_runs());
}

PyObject *py_within(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"handle", "threshold", "seconds", nullptr};
    PyObject *cap;
    int threshold;
    double seconds = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Oi|$d", const_cast<char **>(kwlist), &cap, &threshold,
                                     &seconds))
        return nullptr;
    Ida *s = as_search(cap);
    if (!s) return nullptr;
    Outcome outcome;
    Py_BEGIN_ALLOW_THREADS outcome = s->within(threshold, seconds);
    Py_END_ALLOW_THREADS
    if (outcome == Outcome::timeout) return Py_BuildValue("(sOL)", "unknown", Py_None, s->nodes());
    if (outcome == Outcome::infeasible) return Py_BuildValue("(sOL)", "infeasible", Py_None, s->nodes());
    PyObject *plan = plan_list(s->plan());
    PyObject *out = Py_BuildValue("(sOL)", "feasible", plan, s->nodes());
    Py_DECREF(plan);
    return out;
}

// probe(handle, threshold, *, probes, seed=0, seconds=-1) -> (probes done, mean, standard deviation of one probe's
// estimate, nodes visited): Knuth's estimate of the nodes within(threshold) visits without its table.
PyObject *py_probe(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"handle", "threshold", "probes", "seed", "seconds", nullptr};
    PyObject *cap;
    int threshold;
    long long probes;
    unsigned long long seed = 0;
    double seconds = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiL|$Kd", const_cast<char **>(kwlist), &cap, &threshold, &probes,
                                     &seed, &seconds))
        return nullptr;
    Ida *s = as_search(cap);
    if (!s) return nullptr;
    Ida::ProbeStats st;
    Py_BEGIN_ALLOW_THREADS st = s->probe(threshold, probes, seed, seconds);
    Py_END_ALLOW_THREADS
    const double sd = st.probes > 1 ? std::sqrt(st.m2 / static_cast<double>(st.probes - 1)) : 0.0;
    return Py_BuildValue("(LddL)", st.probes, st.mean, sd, st.visited);
}

// count(handle, threshold, *, cap, seconds=-1) -> the exact node count of the tree probe samples, or None past cap
PyObject *py_count(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"handle", "threshold", "cap", "seconds", nullptr};
    PyObject *cap_obj;
    int threshold;
    long long cap = 10000000;
    double seconds = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Oi|$Ld", const_cast<char **>(kwlist), &cap_obj, &threshold,
                                     &cap, &seconds))
        return nullptr;
    Ida *s = as_search(cap_obj);
    if (!s) return nullptr;
    long long n;
    Py_BEGIN_ALLOW_THREADS n = s->count(threshold, cap, seconds);
    Py_END_ALLOW_THREADS
    if (n < 0) Py_RETURN_NONE;
    return PyLong_FromLongLong(n);
}

PyObject *py_beam(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"adj", "start", "num_colors", "width", "fan", "seconds", "closeness", "ring",
                                   nullptr};
    PyObject *adj_obj, *start_obj;
    int K, width, fan, closeness = 1, ring = 1;
    double seconds;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOiiid|$pp", const_cast<char **>(kwlist), &adj_obj,
                                     &start_obj, &K, &width, &fan, &seconds, &closeness, &ring))
        return nullptr;
    const auto board = read_board(adj_obj, start_obj, K);
    if (!board) return nullptr;
    Plan plan;
    bool ok;
    Py_BEGIN_ALLOW_THREADS ok = kamicp::Beam(*board, ring != 0).run(width, fan, seconds, closeness != 0, plan);
    Py_END_ALLOW_THREADS
    if (!ok) Py_RETURN_NONE;
    return plan_list(plan);
}

PyObject *py_rollout(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"adj", "start", "num_colors", "limit", "seconds", nullptr};
    PyObject *adj_obj, *start_obj;
    int K, limit;
    double seconds;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOiid", const_cast<char **>(kwlist), &adj_obj, &start_obj,
                                     &K, &limit, &seconds))
        return nullptr;
    const auto board = read_board(adj_obj, start_obj, K);
    if (!board) return nullptr;
    Plan plan;
    int steps;
    Py_BEGIN_ALLOW_THREADS steps = kamicp::Rollout(*board).run(limit, seconds, plan);
    Py_END_ALLOW_THREADS
    if (steps < 0) Py_RETURN_NONE;
    return plan_list(plan);
}

// Katamino's bitboard search (katamino.hpp): a list of Python ints as 64-bit masks.
bool to_mask_list(PyObject *obj, std::vector<uint64_t> &out) {
    PyObject *seq = PySequence_Fast(obj, "expected a sequence of masks");
    if (!seq) return false;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    out.resize(len);
    for (Py_ssize_t i = 0; i < len; ++i) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
            Py_DECREF(seq);
            return false;
        }
        out[i] = v;
    }
    Py_DECREF(seq);
    return true;
}

// pack(cells, neighbours, pieces, masks, piece, *, limit=-1, keep=0, seconds=-1, stop=0):
// (end, count, nodes, kept solutions as lists of placement indices; keep=-1 keeps all); end is
// "complete", "limit" or "timeout" (also when the int at address `stop` became non-zero).
PyObject *py_pack(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"cells", "neighbours", "pieces", "masks", "piece", "limit", "keep",
                                   "seconds", "stop", nullptr};
    PyObject *nbr_obj, *mask_obj, *piece_obj;
    int cells, pieces;
    long long limit = -1, keep = 0;
    double seconds = -1.0;
    unsigned long long stop = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOiOO|$LLdK", const_cast<char **>(kwlist), &cells, &nbr_obj,
                                     &pieces, &mask_obj, &piece_obj, &limit, &keep, &seconds, &stop))
        return nullptr;
    std::vector<uint64_t> nbr, masks;
    std::vector<int> piece;
    if (!to_mask_list(nbr_obj, nbr) || !to_mask_list(mask_obj, masks) || !to_int_list(piece_obj, piece))
        return nullptr;
    if (cells < 1 || cells > 64) return fail("cells: 1..64"), nullptr;
    if (pieces < 1 || pieces > 63) return fail("pieces: 1..63"), nullptr;
    if (static_cast<int>(nbr.size()) != cells) return fail("neighbours: one mask per cell"), nullptr;
    if (masks.size() != piece.size()) return fail("masks and piece differ in length"), nullptr;
    const uint64_t board = cells == 64 ? ~0ULL : ((1ULL << cells) - 1);
    for (uint64_t m : nbr)
        if (m & ~board) return fail("neighbours: a mask outside the cells"), nullptr;
    for (size_t j = 0; j < masks.size(); ++j)
        if ((masks[j] & ~board) || piece[j] < 0 || piece[j] >= pieces)
            return fail("masks: a placement outside the cells or of no piece"), nullptr;
    kamicp::Packing packing(cells, std::move(nbr), pieces, masks, piece);
    kamicp::PackSettings settings;
    settings.limit = limit;
    settings.keep = keep;
    settings.seconds = seconds;
    settings.stop = reinterpret_cast<const volatile int *>(static_cast<uintptr_t>(stop));
    kamicp::PackEnd end;
    Py_BEGIN_ALLOW_THREADS end = packing.run(settings);
    Py_END_ALLOW_THREADS
    PyObject *sols = PyList_New(0);
    for (auto &sol : packing.solutions()) {
        PyObject *item = PyList_New(0);
        for (int j : sol) {
            PyObject *v = PyLong_FromLong(j);
            PyList_Append(item, v);
            Py_DECREF(v);
        }
        PyList_Append(sols, item);
        Py_DECREF(item);
    }
    const char *names[] = {"complete", "limit", "timeout"};
    return Py_BuildValue("(sLLN)", names[static_cast<int>(end)], packing.count(), packing.nodes(), sols);
}

// cluster_cost(dist, size, caps): (the cluster cost of the far-apart sample of up to `size` of r regions whose
// distances are the r x r list `dist`, and for each cap in turn whether it is >= cap as the search decides
// it: one object, so later questions go through its cache), for tests.
PyObject *py_cluster_cost(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"dist", "size", "caps", nullptr};
    PyObject *dist_obj, *caps_obj;
    int size;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiO", const_cast<char **>(kwlist), &dist_obj, &size, &caps_obj))
        return nullptr;
    std::vector<int> flat, caps;
    if (!to_int_list(dist_obj, flat) || !to_int_list(caps_obj, caps)) return nullptr;
    int r = 0;
    while (r * r < static_cast<int>(flat.size())) ++r;
    if (r * r != static_cast<int>(flat.size()) || r == 0) return fail("dist: r x r distances, r >= 1"), nullptr;
    if (size < 1 || size > 12) return fail("size: a sample of 1..12 regions"), nullptr;
    for (int v : flat)
        if (v < 0 || v > 30000) return fail("dist: distances 0..30000"), nullptr;
    kamicp::Clusters clusters(size);
    auto fill = [&] {
        clusters.table(r);
        for (int i = 0; i < r; ++i)
            for (int j = 0; j < r; ++j) clusters.row(i)[j] = static_cast<int16_t>(flat[static_cast<size_t>(i) * r + j]);
    };
    fill();
    const int cost = clusters.cost();
    PyObject *answers = PyList_New(0);
    for (int cap : caps) {
        fill();
        PyList_Append(answers, clusters.at_least(cap) ? Py_True : Py_False);
    }
    return Py_BuildValue("(iN)", cost, answers);
}

// ---- Flood-It A* (flood_astar.hpp): flood_create / flood_run / flood_bound ----
const char *const FLOOD_CAPSULE = "kamicp._fastsearch.FloodAstar";

void flood_destroy(PyObject *capsule) {
    delete static_cast<kamicp::FloodSearch *>(PyCapsule_GetPointer(capsule, FLOOD_CAPSULE));
}

// The Flood-It board of (adj, colours, num_colors, start, final), checked; nullptr with a Python error set.
std::unique_ptr<kamicp::FloodBoard> read_flood_board(PyObject *adj_obj, PyObject *colours_obj, int K, int start,
                                                     int final_colour) {
    std::vector<std::vector<int>> adj;
    std::vector<int> colours;
    if (!parse_board(adj_obj, colours_obj, K, adj, colours)) return nullptr;
    const int n = static_cast<int>(adj.size());
    if (start < 0 || start >= n) return fail("start: region out of range"), nullptr;
    if (final_colour < -1 || final_colour >= K) return fail("final: colour index out of range"), nullptr;
    if (n > 100000) return fail("the Flood-It A* supports up to 100000 regions"), nullptr;
    for (int v = 0; v < n; ++v)
        for (int w : adj[v])
            if (colours[w] == colours[v]) return fail("adjacent regions share a colour"), nullptr;
    return std::make_unique<kamicp::FloodBoard>(adj, std::move(colours), K, start, final_colour);
}

PyObject *py_flood_create(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"adj", "colours", "num_colors", "start", "final", "cap", "limit", "lanes", "order",
                                   nullptr};
    PyObject *adj_obj, *colours_obj;
    int K, start, final_colour = -1, limit = -1, lanes = 1, order = 1;
    long long cap = 50000000;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOii|$iLiip", const_cast<char **>(kwlist), &adj_obj, &colours_obj,
                                     &K, &start, &final_colour, &cap, &limit, &lanes, &order))
        return nullptr;
    if (limit < -1 || limit > 1000) return fail("limit: -1 (none) or 0..1000 moves"), nullptr;
    if (lanes < 1 || lanes > 256) return fail("lanes: 1..256 threads"), nullptr;
    if (cap < 1 || cap > 4000000000LL) return fail("cap: 1..4000000000 stored sets"), nullptr;
    auto board = read_flood_board(adj_obj, colours_obj, K, start, final_colour);
    if (!board) return nullptr;
    kamicp::FloodSearch *s;
    try {
        s = kamicp::make_flood_astar(std::move(*board), cap, limit, lanes, order != 0).release();
    } catch (const std::bad_alloc &) {
        return PyErr_NoMemory();
    }
    return PyCapsule_New(s, FLOOD_CAPSULE, flood_destroy);
}

PyObject *py_flood_run(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"handle", "seconds", nullptr};
    PyObject *cap;
    double seconds = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$d", const_cast<char **>(kwlist), &cap, &seconds))
        return nullptr;
    auto *s = static_cast<kamicp::FloodSearch *>(PyCapsule_GetPointer(cap, FLOOD_CAPSULE));
    if (!s) return nullptr;
    kamicp::FloodStatus status;
    Py_BEGIN_ALLOW_THREADS status = s->run(seconds);
    Py_END_ALLOW_THREADS
    static const char *names[] = {"running", "optimal", "capped", "no-solution"};
    PyObject *plan = Py_None;
    Py_INCREF(Py_None);
    if (s->best_length() >= 0) {
        Py_DECREF(Py_None);
        plan = PyList_New(0);
        for (int c : s->plan()) {
            PyObject *item = PyLong_FromLong(c);
            PyList_Append(plan, item);
            Py_DECREF(item);
        }
    }
    return Py_BuildValue("{s:s,s:N,s:i,s:i,s:L,s:L,s:L}", "status", names[static_cast<int>(status)], "plan", plan,
                         "lower", s->lower(), "root_bound", s->root_bound(), "stored", s->stored(), "expanded",
                         s->expanded(), "bytes", s->bytes());
}

// flood_bound(adj, colours, num_colors, start, flooded): the layered bound of the flooded set (region indices)
PyObject *py_flood_bound(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *kwlist[] = {"adj", "colours", "num_colors", "start", "flooded", nullptr};
    PyObject *adj_obj, *colours_obj, *flooded_obj;
    int K, start;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOiiO", const_cast<char **>(kwlist), &adj_obj, &colours_obj, &K,
                                     &start, &flooded_obj))
        return nullptr;
    std::vector<int> flooded;
    if (!to_int_list(flooded_obj, flooded)) return nullptr;
    auto board = read_flood_board(adj_obj, colours_obj, K, start, -1);
    if (!board) return nullptr;
    for (int v : flooded)
        if (v < 0 || v >= board->n) return fail("flooded: region out of range"), nullptr;
    try {
        auto search = kamicp::make_flood_astar(std::move(*board), 1, -1);
        return PyLong_FromLong(search->bound_of(flooded));
    } catch (const std::bad_alloc &) {
        return PyErr_NoMemory();
    }
}
// ---- end Flood-It A* ----

#define KW(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(f)), METH_VARARGS | METH_KEYWORDS

PyMethodDef methods[] = {
    {"create", KW(py_create),
     "create(adj, start, num_colors, *, table_limit=3000000, por=2, gather=True, ring=True, adjacent=True, "
     "symmetry=None, clusters=0, prior_min=-1, prior_near=None, prior_color=-1, pivot_regions=0, pivot_slack=0, "
     "pivot_cap=200000, pivot_layered=True, useful=False) -> handle of an IDA* search "
     "(prior_*: the root searched as if reached by that move, kamicp/prover/prior.py; useful: only merging "
     "moves on a board of one island, models/useful-colours.md)"},
    {"within", KW(py_within), "within(handle, threshold, *, seconds=-1) -> (status, plan or None, nodes)"},
    {"probe", KW(py_probe),
     "probe(handle, threshold, probes, *, seed=0, seconds=-1) -> (probes, mean, sd of a probe, nodes visited)"},
    {"count", KW(py_count), "count(handle, threshold, *, cap, seconds=-1) -> nodes of the pruned tree, or None"},
    {"set_stop", py_set_stop, METH_VARARGS, "set_stop(handle, address of a shared int array or 0, length)"},
    {"set_counter", py_set_counter, METH_VARARGS, "set_counter(handle, address of a shared int64 or 0)"},
    {"pivot_stats", py_pivot_stats, METH_VARARGS, "pivot_stats(handle) -> (asked, by layered bound, A* asked, by A*, A* runs) of the pivot test"},
    {"beam", KW(py_beam),
     "beam(adj, start, num_colors, width, fan, seconds, *, closeness=True, ring=True) -> plan or None"},
    {"rollout", KW(py_rollout),
     "rollout(adj, start, num_colors, limit, seconds) -> a plan of at most limit moves (one move, then a "
     "pivot rollout) or None"},
    {"pack", KW(py_pack),
     "pack(cells, neighbours, pieces, masks, piece, *, limit=-1, keep=0, seconds=-1, stop=0) -> (end, count, "
     "nodes, kept solutions): Katamino's bitboard exact cover (katamino.hpp)"},
    {"cluster_cost", KW(py_cluster_cost),
     "cluster_cost(dist, size, caps) -> (cluster cost of the sample of up to size of the r regions with r x r "
     "distances dist, [whether it is >= cap for each cap, asked in turn of one object])"},
    {"flood_create", KW(py_flood_create),
     "flood_create(adj, colours, num_colors, start, *, final=-1, cap=50000000, limit=-1, lanes=1, order=True) -> "
     "handle of a Flood-It A* (fixed pivot in region start; final: the colour the flood must end in, -1 any; limit: "
     "longest plan wanted; lanes: threads; order: independent moves in a fixed order)"},
    {"flood_run", KW(py_flood_run),
     "flood_run(handle, *, seconds=-1) -> {status: running|optimal|capped|no-solution, plan, lower, root_bound, "
     "stored, expanded, bytes}"},
    {"flood_bound", KW(py_flood_bound),
     "flood_bound(adj, colours, num_colors, start, flooded) -> the layered bound of the flooded regions"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastsearch", "Compiled search core of kamicp (optional).", -1,
                      methods};

}  // namespace

PyMODINIT_FUNC PyInit__fastsearch(void) { return PyModule_Create(&module); }
