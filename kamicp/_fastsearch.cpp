// Optional compiled core of kamicp's IDA* search (kamicp/fastsearch.py wraps it; kamicp/search.py is
// the pure-Python reference it is cross-checked against). Same semantics as search.IDAStar:
// - every region may be painted every other colour (exhaustive move set);
// - pruning only by the sound lower bound of bounds.py (islands: min over the final colour d of the
//   sum over islands of max(radius, colour bound for d)) and a transposition table storing, per
//   board, the largest budget proven insufficient;
// - optional partial-order reduction (models/strengthening.md, "commuting moves"): a move whose
//   clicked set is disjoint from and not adjacent to the previous move's clicked set must have a
//   larger smallest initial region. Nodes where it pruned a move are never stored in the table.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

struct Quot {
    int m = 0;
    std::vector<int> comp;    // initial region -> current region
    std::vector<int> rep;     // current region -> smallest initial region
    std::vector<int> color;   // current region -> colour
    std::vector<int> mstart;  // CSR of members
    std::vector<int> members;
    std::vector<int> astart;  // CSR of adjacency between current regions
    std::vector<int> adj;
};

struct Timeout {};

class Search {
  public:
    // por: 0 off, 1 commuting-move order, 2 the same and failures under a restriction stored too
    Search(std::vector<std::vector<int>> adj0, std::vector<int> start, int K, long long table_limit, int por)
        : n_(static_cast<int>(start.size())), K_(K), start_(std::move(start)), table_limit_(table_limit),
          por_(por > 0), por_store_(por > 1) {
        astart0_.push_back(0);
        for (auto &nb : adj0) {
            for (int w : nb) adj0_.push_back(w);
            astart0_.push_back(static_cast<int>(adj0_.size()));
        }
        stamp_.assign(std::max(n_, 1), 0);
        dist_.assign(std::max(n_, 1), -1);
        queue_.resize(std::max(n_, 1));
    }

    // 1 = feasible (plan filled), 0 = proven infeasible, 2 = timeout
    int within(int threshold, double time_limit) {
        plan_.clear();
        has_deadline_ = time_limit >= 0;
        deadline_ = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(has_deadline_ ? time_limit : 0.0));
        std::vector<char> no_prev;
        try {
            bool ok = dfs(start_, threshold, -1, no_prev, true);
            if (ok) std::reverse(plan_.begin(), plan_.end());
            return ok ? 1 : 0;
        } catch (Timeout &) {
            return 2;
        }
    }

    // Beam search for an upper bound (no proof): keep the `width` best boards per depth by (sound lower
    // bound, regions left); expand each by its `fan` moves that merge the most regions. Fills plan_.
    bool beam(int width, int fan, double time_limit) {
        struct Node {
            std::vector<int> state;
            std::vector<std::pair<int, int>> plan;
            int bound, regions;
        };
        plan_.clear();
        auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(time_limit));
        std::vector<Node> layer{{start_, {}, 0, 0}};
        Quot q, cq;
        std::vector<int> merged(K_);
        for (int depth = 0; depth <= 4 * n_ + 8 && !layer.empty(); ++depth) {
            std::vector<Node> next;
            std::unordered_map<std::string, int> seen;
            for (const Node &node : layer) {
                quotient(node.state, q);
                bool one = true;
                for (int a = 1; a < q.m; ++a)
                    if (q.color[a] != q.color[0]) one = false;
                if (one) {
                    plan_ = node.plan;
                    return true;
                }
                std::vector<std::array<int, 3>> cand;
                for (int a = 0; a < q.m; ++a) {
                    std::fill(merged.begin(), merged.end(), 0);
                    for (int e = q.astart[a]; e < q.astart[a + 1]; ++e) merged[q.color[q.adj[e]]]++;
                    for (int c = 0; c < K_; ++c)
                        if (c != q.color[a]) cand.push_back({-merged[c], a, c});
                }
                std::sort(cand.begin(), cand.end());
                if (static_cast<int>(cand.size()) > fan) cand.resize(fan);
                for (auto &mv : cand) {
                    std::vector<int> child(node.state);
                    for (int i = q.mstart[mv[1]]; i < q.mstart[mv[1] + 1]; ++i) child[q.members[i]] = mv[2];
                    std::string k = key(child);
                    if (seen.count(k)) continue;
                    seen.emplace(k, 0);
                    quotient(child, cq);
                    Node nn{std::move(child), node.plan, bound(cq), cq.m};
                    nn.plan.emplace_back(q.rep[mv[1]], mv[2]);
                    next.push_back(std::move(nn));
                }
                if (std::chrono::steady_clock::now() > until) return false;
            }
            std::stable_sort(next.begin(), next.end(), [](const Node &x, const Node &y) {
                return x.bound != y.bound ? x.bound < y.bound : x.regions < y.regions;
            });
            if (static_cast<int>(next.size()) > width) next.resize(width);
            layer = std::move(next);
        }
        return false;
    }

    const std::vector<std::pair<int, int>> &plan() const { return plan_; }
    long long nodes() const { return nodes_; }
    size_t table_size() const { return table_.size(); }

  private:
    int n_, K_;
    std::vector<int> astart0_, adj0_;
    std::vector<int> start_;
    long long table_limit_;
    bool por_, por_store_;

  public:
    std::vector<int> sigma_;  // a colour-preserving involution of the initial regions, or empty

  private:
    long long nodes_ = 0;
    bool has_deadline_ = false;
    std::chrono::steady_clock::time_point deadline_;
    std::unordered_map<std::string, int> table_;
    std::vector<std::pair<int, int>> plan_;
    std::vector<int> stamp_;
    int stamp_val_ = 0;
    std::vector<int> dist_, queue_;

    int next_stamp() {
        if (++stamp_val_ == 0x7fffffff) {
            std::fill(stamp_.begin(), stamp_.end(), 0);
            stamp_val_ = 1;
        }
        return stamp_val_;
    }

    std::string key(const std::vector<int> &state) const {
        std::string k((n_ + 1) / 2, '\0');
        for (int v = 0; v < n_; ++v) k[v / 2] = static_cast<char>(k[v / 2] | (state[v] << (4 * (v & 1))));
        return k;
    }

    void quotient(const std::vector<int> &state, Quot &q) {
        q.comp.assign(n_, -1);
        q.rep.clear();
        q.color.clear();
        q.mstart.clear();
        q.members.clear();
        q.mstart.push_back(0);
        for (int s = 0; s < n_; ++s) {
            if (q.comp[s] != -1) continue;
            int id = static_cast<int>(q.rep.size());
            q.rep.push_back(s);
            q.color.push_back(state[s]);
            q.comp[s] = id;
            size_t head = q.members.size();
            q.members.push_back(s);
            while (head < q.members.size()) {
                int v = q.members[head++];
                for (int e = astart0_[v]; e < astart0_[v + 1]; ++e) {
                    int w = adj0_[e];
                    if (q.comp[w] == -1 && state[w] == state[s]) {
                        q.comp[w] = id;
                        q.members.push_back(w);
                    }
                }
            }
            q.mstart.push_back(static_cast<int>(q.members.size()));
        }
        q.m = static_cast<int>(q.rep.size());
        q.astart.clear();
        q.adj.clear();
        q.astart.push_back(0);
        std::vector<int> seen(q.m, -1);
        for (int a = 0; a < q.m; ++a) {
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) {
                int v = q.members[i];
                for (int e = astart0_[v]; e < astart0_[v + 1]; ++e) {
                    int b = q.comp[adj0_[e]];
                    if (b != a && seen[b] != a) {
                        seen[b] = a;
                        q.adj.push_back(b);
                    }
                }
            }
            q.astart.push_back(static_cast<int>(q.adj.size()));
        }
    }

    // The sound lower bound of bounds.lower_bound on the quotient graph.
    int bound(const Quot &q) {
        const int m = q.m;
        std::vector<int> island(m, -1);
        std::vector<int> order;
        order.reserve(m);
        std::vector<int> rad;
        std::vector<std::vector<int>> counts;
        for (int s = 0; s < m; ++s) {
            if (island[s] != -1) continue;
            int id = static_cast<int>(rad.size());
            size_t first = order.size();
            island[s] = id;
            order.push_back(s);
            for (size_t h = first; h < order.size(); ++h) {
                int v = order[h];
                for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                    int w = q.adj[e];
                    if (island[w] == -1) {
                        island[w] = id;
                        order.push_back(w);
                    }
                }
            }
            std::vector<int> cnt(K_, 0);
            for (size_t h = first; h < order.size(); ++h) cnt[q.color[order[h]]]++;
            counts.push_back(std::move(cnt));
            // radius with cutoff: a BFS stops once its depth reaches the best eccentricity so far
            int size = static_cast<int>(order.size() - first);
            int best = size;  // larger than any eccentricity
            if (size == 1) best = 0;
            std::vector<std::pair<int, int>> cand;
            for (size_t h = first; h < order.size(); ++h) {
                int v = order[h];
                cand.emplace_back(-(q.astart[v + 1] - q.astart[v]), v);
            }
            std::sort(cand.begin(), cand.end());
            for (auto &cv : cand) {
                if (best == 0) break;
                int src = cv.second;
                int st = next_stamp();
                stamp_[src] = st;
                dist_[src] = 0;
                int qh = 0, qt = 0;
                queue_[qt++] = src;
                int reached = 1, ecc = 0;
                bool aborted = false;
                while (qh < qt) {
                    int v = queue_[qh++];
                    int dv = dist_[v];
                    if (dv + 1 >= best && reached < size) {
                        // every unreached node is at distance >= dv + 1 >= best
                        aborted = true;
                        break;
                    }
                    for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                        int w = q.adj[e];
                        if (stamp_[w] != st) {
                            stamp_[w] = st;
                            dist_[w] = dv + 1;
                            ecc = dv + 1;
                            queue_[qt++] = w;
                            ++reached;
                        }
                    }
                }
                if (!aborted && ecc < best) best = ecc;
            }
            rad.push_back(best);
        }
        int result = -1;
        for (int d = 0; d < K_; ++d) {
            int total = 0;
            for (size_t i = 0; i < rad.size(); ++i) {
                int others = 0;
                bool single = false;
                for (int c = 0; c < K_; ++c) {
                    if (c == d || counts[i][c] == 0) continue;
                    ++others;
                    if (counts[i][c] == 1) single = true;
                }
                int cb = others == 0 ? 0 : others + (single ? 0 : 1);
                total += std::max(rad[i], cb);
            }
            if (result < 0 || total < result) result = total;
        }
        return result;
    }

    bool dfs(const std::vector<int> &state, int budget, int prev_min, const std::vector<char> &near_prev,
             bool root = false) {
        ++nodes_;
        if (has_deadline_ && (nodes_ & 255) == 0 && std::chrono::steady_clock::now() > deadline_) throw Timeout{};
        Quot q;
        quotient(state, q);
        bool one = true;
        for (int a = 1; a < q.m; ++a)
            if (q.color[a] != q.color[0]) one = false;
        if (one) return true;
        if (budget <= 0 || bound(q) > budget) return false;
        std::string k = key(state);
        auto it = table_.find(k);
        if (it != table_.end() && it->second >= budget) return false;
        std::string rk;  // the board plus the restriction (smallest region and closed neighbourhood of P)
        if (por_store_ && prev_min >= 0) {
            rk = k;
            rk.push_back('\xff');
            rk.push_back(static_cast<char>(prev_min & 0xff));
            rk.push_back(static_cast<char>((prev_min >> 8) & 0xff));
            std::string bits((n_ + 7) / 8, '\0');
            for (int v = 0; v < n_; ++v)
                if (near_prev[v]) bits[v / 8] = static_cast<char>(bits[v / 8] | (1 << (v & 7)));
            rk += bits;
            auto rit = table_.find(rk);
            if (rit != table_.end() && rit->second >= budget) return false;
        }

        struct Mv {
            int merged, k, c;
        };
        std::vector<Mv> moves;
        std::vector<int> merged(K_);
        bool pruned = false;
        const bool sym = root && !sigma_.empty();
        for (int a = 0; a < q.m; ++a) {
            if (sym && sigma_[q.rep[a]] < q.rep[a] && q.mstart[a + 1] - q.mstart[a] == 1) {
                pruned = true;  // the mirrored solution starts with sigma(r) < r
                continue;
            }
            if (por_ && prev_min >= 0 && q.rep[a] < prev_min) {
                bool indep = true;
                for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i)
                    if (near_prev[q.members[i]]) {
                        indep = false;
                        break;
                    }
                if (indep) {
                    pruned = true;
                    continue;
                }
            }
            std::fill(merged.begin(), merged.end(), 0);
            for (int e = q.astart[a]; e < q.astart[a + 1]; ++e) merged[q.color[q.adj[e]]]++;
            for (int c = 0; c < K_; ++c)
                if (c != q.color[a]) moves.push_back({merged[c], a, c});
        }
        std::stable_sort(moves.begin(), moves.end(), [](const Mv &x, const Mv &y) { return x.merged > y.merged; });
        std::vector<int> child(state);
        std::vector<char> near;
        if (por_) near.assign(n_, 0);
        for (const Mv &mv : moves) {
            const int a = mv.k;
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) child[q.members[i]] = mv.c;
            if (por_) {
                std::fill(near.begin(), near.end(), 0);
                for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) {
                    int v = q.members[i];
                    near[v] = 1;
                    for (int e = astart0_[v]; e < astart0_[v + 1]; ++e) near[adj0_[e]] = 1;
                }
            }
            // after a symmetry-restricted first move the second move is not ordered against it
            bool ok = dfs(child, budget - 1, sym ? -1 : q.rep[a], near);
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) child[q.members[i]] = q.color[a];
            if (ok) {
                plan_.emplace_back(q.rep[a], mv.c);
                return true;
            }
        }
        if (!pruned || !rk.empty()) {
            if (static_cast<long long>(table_.size()) >= table_limit_) table_.clear();
            int &slot = table_[pruned ? rk : k];
            if (slot < budget) slot = budget;
        }
        return false;
    }
};

void destroy(PyObject *capsule) {
    delete static_cast<Search *>(PyCapsule_GetPointer(capsule, "kamicp._fastsearch.Search"));
}

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

PyObject *py_create(PyObject *, PyObject *args) {
    PyObject *adj_obj, *start_obj;
    int K, por;
    long long table_limit;
    if (!PyArg_ParseTuple(args, "OOiLi", &adj_obj, &start_obj, &K, &table_limit, &por)) return nullptr;
    std::vector<int> start;
    if (!to_int_list(start_obj, start)) return nullptr;
    PyObject *seq = PySequence_Fast(adj_obj, "adj: expected a sequence");
    if (!seq) return nullptr;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != static_cast<Py_ssize_t>(start.size())) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "adj and start differ in length");
        return nullptr;
    }
    std::vector<std::vector<int>> adj(n);
    for (Py_ssize_t i = 0; i < n; ++i) {
        if (!to_int_list(PySequence_Fast_GET_ITEM(seq, i), adj[i])) {
            Py_DECREF(seq);
            return nullptr;
        }
        for (int w : adj[i])
            if (w < 0 || w >= n) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "adjacency index out of range");
                return nullptr;
            }
    }
    Py_DECREF(seq);
    if (K < 1 || K > 15) {
        PyErr_SetString(PyExc_ValueError, "the compiled search supports 1..15 colours");
        return nullptr;
    }
    for (int c : start)
        if (c < 0 || c >= K) {
            PyErr_SetString(PyExc_ValueError, "colour index out of range");
            return nullptr;
        }
    auto *s = new Search(std::move(adj), std::move(start), K, table_limit, por);
    return PyCapsule_New(s, "kamicp._fastsearch.Search", destroy);
}

PyObject *py_set_symmetry(PyObject *, PyObject *args) {
    PyObject *cap, *sigma_obj;
    if (!PyArg_ParseTuple(args, "OO", &cap, &sigma_obj)) return nullptr;
    auto *s = static_cast<Search *>(PyCapsule_GetPointer(cap, "kamicp._fastsearch.Search"));
    if (!s) return nullptr;
    std::vector<int> sigma;
    if (sigma_obj != Py_None && !to_int_list(sigma_obj, sigma)) return nullptr;
    s->sigma_ = std::move(sigma);
    Py_RETURN_NONE;
}

PyObject *py_within(PyObject *, PyObject *args) {
    PyObject *cap;
    int threshold;
    double time_limit;
    if (!PyArg_ParseTuple(args, "Oid", &cap, &threshold, &time_limit)) return nullptr;
    auto *s = static_cast<Search *>(PyCapsule_GetPointer(cap, "kamicp._fastsearch.Search"));
    if (!s) return nullptr;
    int status;
    Py_BEGIN_ALLOW_THREADS status = s->within(threshold, time_limit);
    Py_END_ALLOW_THREADS if (status == 2) return Py_BuildValue("(sOL)", "unknown", Py_None, s->nodes());
    if (status == 0) return Py_BuildValue("(sOL)", "infeasible", Py_None, s->nodes());
    PyObject *plan = PyList_New(0);
    for (auto &mv : s->plan()) {
        PyObject *item = Py_BuildValue("(ii)", mv.first, mv.second);
        PyList_Append(plan, item);
        Py_DECREF(item);
    }
    PyObject *out = Py_BuildValue("(sOL)", "feasible", plan, s->nodes());
    Py_DECREF(plan);
    return out;
}

PyObject *py_beam(PyObject *, PyObject *args) {
    PyObject *cap;
    int width, fan;
    double time_limit;
    if (!PyArg_ParseTuple(args, "Oiid", &cap, &width, &fan, &time_limit)) return nullptr;
    auto *s = static_cast<Search *>(PyCapsule_GetPointer(cap, "kamicp._fastsearch.Search"));
    if (!s) return nullptr;
    bool ok;
    Py_BEGIN_ALLOW_THREADS ok = s->beam(width, fan, time_limit);
    Py_END_ALLOW_THREADS if (!ok) Py_RETURN_NONE;
    PyObject *plan = PyList_New(0);
    for (auto &mv : s->plan()) {
        PyObject *item = Py_BuildValue("(ii)", mv.first, mv.second);
        PyList_Append(plan, item);
        Py_DECREF(item);
    }
    return plan;
}

PyMethodDef methods[] = {
    {"set_symmetry", py_set_symmetry, METH_VARARGS, "set_symmetry(handle, sigma or None)"},
    {"beam", py_beam, METH_VARARGS, "beam(handle, width, fan, time_limit) -> plan or None (an upper bound)"},
    {"create", py_create, METH_VARARGS, "create(adj, start, num_colors, table_limit, por) -> handle"},
    {"within", py_within, METH_VARARGS,
     "within(handle, threshold, time_limit or -1) -> (status, plan or None, nodes)"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastsearch", "Compiled IDA* core of kamicp (optional).", -1,
                      methods};

}  // namespace

PyMODINIT_FUNC PyInit__fastsearch(void) { return PyModule_Create(&module); }
