// Optional compiled core of kamicp's IDA* search (kamicp/fastsearch.py wraps it; kamicp/search.py is
// the pure-Python reference it is cross-checked against). Same semantics as search.IDAStar:
// - every region may be painted every other colour (exhaustive move set);
// - pruning only by the sound lower bound of bounds.py (islands: min over the final colour d of the
//   sum over islands of max(radius with the ring rule, colour bound for d)) and a transposition table storing, per
//   board, the largest budget proven insufficient;
// - optional partial-order reduction (models/strengthening.md, "commuting moves"): a move that commutes
//   with the previous one (its clicked set disjoint from and not adjacent to the previous move's; or,
//   with `adjacent_`, adjacent to it but painting another colour than the previous clicked set had)
//   must have a larger smallest initial region. Nodes where it pruned a move are stored only under a
//   key that includes the restriction.
// How it is fast without changing the tree (models/strengthening.md §3): at a one-island node, every
// child's bound is decided from the node's region distances (contracting the move's star gives the
// child's distances exactly), so pruned children are counted but never built; other radius checks use
// landmark lower bounds; the table is open addressing over exact keys (a hash never decides a prune).
// In the portfolio's race, `set_stop` hands the core the ledger's shared flags: a horizon another process
// proved is abandoned like a timeout (kamicp/portfolio.py).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
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

// Transposition table with exact keys (no false hits: a hit is a proof step, so hashes only index).
// Open addressing, grows by doubling; `clear()` when the owner's entry limit is reached bounds memory.
class FailTable {
  public:
    void set_width(int w) {
        width_ = w;
        clear();
    }
    size_t size() const { return count_; }
    void clear() {
        cap_ = 1024;
        count_ = 0;
        hash_.assign(cap_, 0);
        val_.assign(cap_, 0);
        keys_.assign(cap_ * width_, 0);
    }
    // the stored budget for key (width_ bytes), or -1
    int find(const unsigned char *key, uint64_t h) const {
        size_t i = h & (cap_ - 1);
        while (hash_[i] != 0) {
            if (hash_[i] == h && std::memcmp(&keys_[i * width_], key, width_) == 0) return val_[i];
            i = (i + 1) & (cap_ - 1);
        }
        return -1;
    }
    // stores max(stored, budget)
    void raise(const unsigned char *key, uint64_t h, int budget) {
        if ((count_ + 1) * 4 > cap_ * 3) grow();  // load at most 3/4
        size_t i = h & (cap_ - 1);
        while (hash_[i] != 0) {
            if (hash_[i] == h && std::memcmp(&keys_[i * width_], key, width_) == 0) {
                if (val_[i] < budget) val_[i] = budget;
                return;
            }
            i = (i + 1) & (cap_ - 1);
        }
        hash_[i] = h;
        val_[i] = budget;
        std::memcpy(&keys_[i * width_], key, width_);
        ++count_;
    }
    static uint64_t hash(const unsigned char *key, int width) {
        uint64_t h = 0x243F6A8885A308D3ULL;
        int i = 0;
        for (; i + 8 <= width; i += 8) {
            uint64_t w;
            std::memcpy(&w, key + i, 8);
            h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
            h ^= h >> 29;
        }
        for (; i < width; ++i) {
            h = (h ^ key[i]) * 0x100000001B3ULL;
        }
        h ^= h >> 32;
        h *= 0xD6E8FEB86659FD93ULL;
        h ^= h >> 32;
        return h | 1;  // 0 marks an empty slot
    }

  private:
    int width_ = 1;
    size_t cap_ = 0, count_ = 0;
    std::vector<uint64_t> hash_;
    std::vector<int> val_;
    std::vector<unsigned char> keys_;

    void grow() {
        std::vector<uint64_t> oh;
        std::vector<int> ov;
        std::vector<unsigned char> ok;
        oh.swap(hash_);
        ov.swap(val_);
        ok.swap(keys_);
        size_t ocap = cap_;
        cap_ *= 2;
        hash_.assign(cap_, 0);
        val_.assign(cap_, 0);
        keys_.assign(cap_ * width_, 0);
        for (size_t j = 0; j < ocap; ++j) {
            if (oh[j] == 0) continue;
            size_t i = oh[j] & (cap_ - 1);
            while (hash_[i] != 0) i = (i + 1) & (cap_ - 1);
            hash_[i] = oh[j];
            val_[i] = ov[j];
            std::memcpy(&keys_[i * width_], &ok[j * width_], width_);
        }
    }
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
        land0_.assign(std::max(n_, 1), 0);
        land1_.assign(std::max(n_, 1), 0);
        land2_.assign(std::max(n_, 1), 0);
        cnt_.assign(K_, 0);
        merged_.assign(K_, 0);
        g_.assign(K_, 0);
        cchild_.assign(K_, 0);
        gchild_.assign(K_, 0);
        snb_.assign(K_, 0);
        tstamp_.assign(std::max(n_, 1), 0);
        ta_.assign(std::max(n_, 1), 0);
        tsc_.assign(std::max(n_, 1), 0);
        qseen_.assign(std::max(n_, 1), -1);
        table_.set_width(1);
    }

    // 1 = feasible (plan filled), 0 = proven infeasible, 2 = timeout
    int within(int threshold, double time_limit) {
        plan_.clear();
        has_deadline_ = time_limit >= 0;
        deadline_ = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(has_deadline_ ? time_limit : 0.0));
        setup_frames(threshold);
        threshold_ = threshold;
        cur_ = start_;
        try {
            bool ok = dfs(0, threshold, -1, nullptr, -1, true);
            if (ok) std::reverse(plan_.begin(), plan_.end());
            return ok ? 1 : 0;
        } catch (Timeout &) {
            return 2;
        }
    }

    // Beam search for an upper bound (no proof): keep the `width` best boards per depth by (sound lower
    // bound, [closeness,] regions left); expand each by its `fan` moves that merge the most regions.
    // Fills plan_.
    bool beam(int width, int fan, double time_limit, bool closeness) {
        struct Node {
            std::vector<int> state;
            std::vector<std::pair<int, int>> plan;
            int bound, regions, spread;
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
                    Node nn{std::move(child), node.plan, bound(cq), cq.m, closeness ? spread(cq) : 0};
                    nn.plan.emplace_back(q.rep[mv[1]], mv[2]);
                    next.push_back(std::move(nn));
                }
                if (std::chrono::steady_clock::now() > until) return false;
            }
            std::stable_sort(next.begin(), next.end(), [](const Node &x, const Node &y) {
                if (x.bound != y.bound) return x.bound < y.bound;
                return x.spread != y.spread ? x.spread < y.spread : x.regions < y.regions;
            });
            if (static_cast<int>(next.size()) > width) next.resize(width);
            layer = std::move(next);
        }
        return false;
    }

    // One move, then a pivot rollout: the shortest such plan of at most `limit` moves, trying every move of
    // the start board while time is left (an upper bound, never a proof). Returns its length or -1.
    int rollout_ply(int limit, double time_limit, std::vector<std::pair<int, int>> &plan) {
        auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(time_limit));
        Quot q, cq;
        quotient(start_, q);
        std::vector<std::pair<int, int>> tail;
        int best = -1;
        plan.clear();
        int r = pivot_rollout(q, limit, tail);
        if (r >= 0) best = r, plan = tail, limit = r - 1;
        std::vector<int> child;
        for (int a = 0; a < q.m; ++a)
            for (int c = 0; c < K_; ++c) {
                if (c == q.color[a] || limit < 1) continue;
                if (std::chrono::steady_clock::now() > until) return best;
                child = start_;
                for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) child[q.members[i]] = c;
                quotient(child, cq);
                r = pivot_rollout(cq, limit - 1, tail);
                if (r < 0) continue;
                best = r + 1;
                limit = best - 1;
                plan.assign(1, {q.rep[a], c});
                plan.insert(plan.end(), tail.begin(), tail.end());
            }
        return best;
    }

    // Pivot rollout (an upper bound, never a proof): finish the board by painting only the growing blob of
    // one region (the pivot), choosing each colour greedily with one step of look-ahead by the pivot
    // bound max(distance from the blob to the farthest region, colours outside the blob). Tries the
    // pivots of eccentricity at most min(limit, radius + 2); returns the fewest steps (<= limit) and fills
    // `moves` (taps on the pivot's smallest initial region), or -1.
    int pivot_rollout(const Quot &q, int limit, std::vector<std::pair<int, int>> &moves) {
        const int m = q.m;
        moves.clear();
        if (m == 1) return 0;
        if (limit < 1) return -1;
        std::vector<std::pair<int, int>> pivots;
        for (int x = 0; x < m; ++x) {
            int far;
            int e = bfs_full(q, x, dist_, far);
            pivots.emplace_back(e, x);
        }
        for (int x = 0; x < m; ++x)
            if (stamp_[x] != stamp_val_) return -1;  // several islands: no single pivot floods them all
        std::sort(pivots.begin(), pivots.end());
        const int cap = std::min(limit, pivots[0].first + 2);  // + 1 misses tri-90b5c-proper-s405's 11
        int best = -1;
        std::vector<char> blob(m), b1(m), b2(m);
        std::vector<int> colours, next_colours;
        std::vector<std::pair<int, int>> seq;
        for (auto &px : pivots) {
            int lim = best >= 0 ? best - 1 : limit;
            if (px.first > std::min(cap, lim)) break;
            int x = px.second;
            std::fill(blob.begin(), blob.end(), 0);
            blob[x] = 1;
            int size = 1, steps = 0;
            seq.clear();
            while (size < m) {
                if (steps + pivot_bound(q, blob) > lim) break;
                int bestc = -1, bsize = 0;
                std::pair<int, int> bkey{1 << 30, 0};
                for (int c : blob_colours(q, blob, colours)) {
                    b1 = blob;
                    int s1 = size + grow_blob(q, b1, c);
                    std::pair<int, int> key{0, -s1};
                    if (s1 < m) {
                        key = {1 << 30, 0};
                        for (int c2 : blob_colours(q, b1, next_colours)) {
                            b2 = b1;
                            int s2 = s1 + grow_blob(q, b2, c2);
                            std::pair<int, int> k2{s2 < m ? pivot_bound(q, b2) : 0, -s2};
                            key = std::min(key, k2);
                        }
                    }
                    if (key < bkey) bkey = key, bestc = c, bsize = s1;
                }
                grow_blob(q, blob, bestc);
                size = bsize;
                seq.emplace_back(q.rep[x], bestc);
                ++steps;
            }
            if (size == m && steps <= lim) {
                best = steps;
                moves = seq;
            }
        }
        return best;
    }

    // The colours of the regions next to the blob (`out`, returned).
    const std::vector<int> &blob_colours(const Quot &q, const std::vector<char> &blob, std::vector<int> &out) {
        std::fill(merged_.begin(), merged_.end(), 0);
        for (int a = 0; a < q.m; ++a)
            if (blob[a])
                for (int e = q.astart[a]; e < q.astart[a + 1]; ++e)
                    if (!blob[q.adj[e]]) merged_[q.color[q.adj[e]]] = 1;
        out.clear();
        for (int c = 0; c < K_; ++c)
            if (merged_[c]) out.push_back(c);
        return out;
    }

    // Paint the blob c: it absorbs its neighbours of colour c (regions of one colour are never adjacent,
    // so one layer is all). Returns the number absorbed.
    int grow_blob(const Quot &q, std::vector<char> &blob, int c) {
        int st = next_stamp(), added = 0;
        for (int a = 0; a < q.m; ++a)
            if (blob[a])
                for (int e = q.astart[a]; e < q.astart[a + 1]; ++e) {
                    int w = q.adj[e];
                    if (!blob[w] && q.color[w] == c && stamp_[w] != st) stamp_[w] = st, queue_[added++] = w;
                }
        for (int i = 0; i < added; ++i) blob[queue_[i]] = 1;
        return added;
    }

    // A lower bound on the steps a pivot-only finish needs from `blob`: each step brings every region at
    // most one step closer and removes at most one colour from outside.
    int pivot_bound(const Quot &q, const std::vector<char> &blob) {
        int st = next_stamp(), qh = 0, qt = 0, ecc = 0;
        for (int a = 0; a < q.m; ++a)
            if (blob[a]) stamp_[a] = st, dist_[a] = 0, queue_[qt++] = a;
        std::fill(cnt_.begin(), cnt_.end(), 0);
        while (qh < qt) {
            int v = queue_[qh++];
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                int w = q.adj[e];
                if (stamp_[w] != st) {
                    stamp_[w] = st;
                    dist_[w] = ecc = dist_[v] + 1;
                    cnt_[q.color[w]] = 1;
                    queue_[qt++] = w;
                }
            }
        }
        int outside = 0;
        for (int c = 0; c < K_; ++c) outside += cnt_[c];
        return std::max(ecc, outside);
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
    bool gather_ = true;      // the gathering refinement of the colour bound (off only for ablations)
    bool ring_ = true;        // the ring refinement of the radius bound (off only for ablations)
    bool adjacent_ = true;    // the commuting order also between adjacent moves (off only for ablations)
    // Shared memory of the portfolio: stop_[h] != 0 once another process proved horizon h infeasible; a
    // search within that horizon then stops as on a timeout (the caller reads the same memory to tell).
    const volatile int *stop_ = nullptr;
    int stop_len_ = 0;

  private:
    long long nodes_ = 0;
    int threshold_ = 0;
    bool has_deadline_ = false;
    std::chrono::steady_clock::time_point deadline_;
    FailTable table_;
    std::vector<int> merged_, qseen_, g_, cchild_, gchild_, snb_, tstamp_, ta_, tsc_;
    int tstamp_val_ = 0;
    bool single_island_ = false;
    std::vector<std::pair<int, int>> plan_;
    std::vector<int> stamp_;
    int stamp_val_ = 0;
    std::vector<int> dist_, queue_, land0_, land1_, land2_, island_, order_, cnt_;
    std::vector<std::pair<int, int>> cand_;

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
        std::vector<int> &seen = qseen_;
        std::fill(seen.begin(), seen.begin() + q.m, -1);
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

    // Full BFS over one island from src: dist (by quotient id) and the farthest vertex; returns the eccentricity.
    int bfs_full(const Quot &q, int src, std::vector<int> &dist, int &far) {
        int st = next_stamp();
        stamp_[src] = st;
        dist[src] = 0;
        int qh = 0, qt = 0;
        queue_[qt++] = src;
        far = src;
        while (qh < qt) {
            int v = queue_[qh++];
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                int w = q.adj[e];
                if (stamp_[w] != st) {
                    stamp_[w] = st;
                    dist[w] = dist[v] + 1;
                    far = w;
                    queue_[qt++] = w;
                }
            }
        }
        return dist[far];
    }

    // Are the vertices of `verts` at distance exactly B (by dist) all of one colour (or none)? The ring rule
    // (models/bounds.md): a centre of eccentricity B needs this to finish in B moves.
    bool ring_mono(const Quot &q, const int *verts, int size, const int *dist, int B) const {
        int e0 = -1;
        for (int i = 0; i < size; ++i) {
            int v = verts[i];
            if (dist[v] != B) continue;
            if (e0 < 0) e0 = q.color[v];
            else if (q.color[v] != e0) return false;
        }
        return true;
    }

    // Is the eccentricity of src at most B within an island of `size` vertices, and (with the ring rule)
    // its ring at distance B one colour? (BFS cut at depth B)
    bool ecc_at_most(const Quot &q, int src, int B, int size) {
        int st = next_stamp();
        stamp_[src] = st;
        dist_[src] = 0;
        int qh = 0, qt = 0;
        queue_[qt++] = src;
        while (qh < qt) {
            int v = queue_[qh++];
            int dv = dist_[v];
            if (dv >= B) break;  // everything within depth B is already queued
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                int w = q.adj[e];
                if (stamp_[w] != st) {
                    stamp_[w] = st;
                    dist_[w] = dv + 1;
                    queue_[qt++] = w;
                }
            }
        }
        return qt == size && (!ring_ || tail_mono(q, qt, B));
    }

    // Breadth-first search from src over the current regions, into queue_ (in order) and dist_; it gives up
    // (returns -1) once a vertex at depth > `within` is due while fewer than `size` vertices are reached
    // (every unreached one is farther than `within`). Otherwise returns the eccentricity of src in its
    // island (`qt` = vertices reached, `sum` = their total distance).
    int bfs_ecc(const Quot &q, int src, int within, int size, int &qt, int &sum) {
        int st = next_stamp();
        stamp_[src] = st;
        dist_[src] = 0;
        int qh = 0, ecc = 0;
        qt = 0;
        sum = 0;
        queue_[qt++] = src;
        while (qh < qt) {
            int v = queue_[qh++], dv = dist_[v];
            sum += dv;
            if (dv + 1 > within && qt < size) return -1;
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                int w = q.adj[e];
                if (stamp_[w] != st) {
                    stamp_[w] = st;
                    dist_[w] = ecc = dv + 1;
                    queue_[qt++] = w;
                }
            }
        }
        return ecc;
    }

    // The beam's tie-break among boards of equal bound (a heuristic, never a proof): the sum of distances
    // from a centre that attains the radius term (with the ring rule when on), the least such sum; 0 on a
    // board of several islands. Smaller means the board is gathered closer around its centre (measured:
    // shorter plans on 7 of 43 levels, none longer; benchmarks/RESULTS.md, fourth round).
    int spread(const Quot &q) {
        const int m = q.m;
        int best_val = m + 2, best_sum = 0;
        std::vector<std::pair<int, int>> order;  // by degree, largest first: good centres early, so
        for (int v = 0; v < m; ++v) order.emplace_back(q.astart[v] - q.astart[v + 1], v);  // the cutoff bites
        std::sort(order.begin(), order.end());
        for (auto &dv_src : order) {
            int qt, sum;
            int ecc = bfs_ecc(q, dv_src.second, best_val, m, qt, sum);
            if (ecc < 0) continue;  // some region is farther than best_val: this centre cannot attain it
            if (qt < m) return 0;
            int val = ecc + (ring_ && !tail_mono(q, qt, ecc) ? 1 : 0);
            if (val < best_val || (val == best_val && sum < best_sum)) best_val = val, best_sum = sum;
        }
        return best_sum;
    }

    // After a BFS (queue_[0..qt), distances dist_) that reached depth B: are the vertices at depth B, the
    // queue's tail, all of one colour?
    bool tail_mono(const Quot &q, int qt, int B) const {
        for (int i = qt - 1; i >= 0 && dist_[queue_[i]] == B; --i)
            if (q.color[queue_[i]] != q.color[queue_[qt - 1]]) return false;
        return true;
    }

    // radius(island) <= B, decided exactly: landmark BFSs give each vertex a lower bound on its eccentricity
    // (ecc(v) >= d(L, v) and ecc(v) >= ecc(L) - d(L, v)); only vertices whose lower bound is <= B are tried.
    // With the ring rule: some v has ecc(v) <= B and its ring at distance B one colour.
    bool radius_at_most(const Quot &q, const int *verts, int size, int B) {
        if (size == 1) return B >= 0;
        if (B <= 0) return false;
        int v0 = verts[0], bestdeg = -1;
        for (int i = 0; i < size; ++i) {
            int v = verts[i], deg = q.astart[v + 1] - q.astart[v];
            if (deg > bestdeg) bestdeg = deg, v0 = v;
        }
        int far0, far1;
        auto fits = [&](int ecc, const std::vector<int> &dist) {
            return ecc < B || (ecc == B && (!ring_ || ring_mono(q, verts, size, dist.data(), B)));
        };
        int ecc0 = bfs_full(q, v0, land0_, far0);
        if (fits(ecc0, land0_)) return true;
        int ecc1 = bfs_full(q, far0, land1_, far1);
        if (fits(ecc1, land1_)) return true;
        int far2;
        int ecc2 = bfs_full(q, far1, land2_, far2);
        if (fits(ecc2, land2_)) return true;
        cand_.clear();
        for (int i = 0; i < size; ++i) {
            int v = verts[i];
            int lb = std::max(land0_[v], ecc0 - land0_[v]);
            lb = std::max(lb, std::max(land1_[v], ecc1 - land1_[v]));
            lb = std::max(lb, std::max(land2_[v], ecc2 - land2_[v]));
            if (lb <= B && v != v0 && v != far0 && v != far1) cand_.emplace_back(lb, v);
        }
        std::sort(cand_.begin(), cand_.end());
        for (auto &cv : cand_)
            if (ecc_at_most(q, cv.second, B, size)) return true;
        return false;
    }

    // bounds.gather_costs: per colour of one island (counts cnt), a lower bound 0/1/2 on the moves that leave
    // it a single region: 0 one region; 1 two regions, or a region touches all of them; else 2.
    void gather_costs(const Quot &q, const int *verts, int size, const int *cnt, int *g) {
        for (int c = 0; c < K_; ++c) g[c] = cnt[c] <= 1 ? 0 : cnt[c] == 2 || !gather_ ? 1 : 2;
        for (int i = 0; i < size; ++i) {
            int v = verts[i];
            std::fill(merged_.begin(), merged_.end(), 0);
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) merged_[q.color[q.adj[e]]]++;
            for (int c = 0; c < K_; ++c)
                if (g[c] == 2 && merged_[c] == cnt[c]) g[c] = 1;
        }
    }

    // bounds.colour_bound for final colour d: one move per other colour present, plus the cheapest gathering
    int colour_bound(const int *cnt, const int *g, int d) const {
        int others = 0, least = 2;
        for (int c = 0; c < K_; ++c) {
            if (c == d || cnt[c] == 0) continue;
            ++others;
            least = std::min(least, g[c]);
        }
        return others == 0 ? 0 : others + least;
    }

    // Appends the island (connected component) of s to `order`, breadth-first, marking it `id` in `island`.
    static void grow_island(const Quot &q, int s, int id, std::vector<int> &island, std::vector<int> &order) {
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
    }

    // bound(q) > budget, decided without computing the bound exactly on one-island boards.
    bool prunes(const Quot &q, int budget) {
        const int m = q.m;
        island_.assign(m, -1);
        order_.clear();
        int islands = 0;
        for (int s = 0; s < m && islands < 2; ++s)
            if (island_[s] == -1) grow_island(q, s, islands++, island_, order_);
        single_island_ = islands == 1;
        if (islands > 1) return bound(q) > budget;
        // one island: bound = max(radius, min over d of the colour bound for d)
        std::fill(cnt_.begin(), cnt_.end(), 0);
        for (int a = 0; a < m; ++a) cnt_[q.color[a]]++;
        gather_costs(q, order_.data(), m, cnt_.data(), g_.data());
        int cbmin = 1 << 30;
        for (int d = 0; d < K_; ++d) cbmin = std::min(cbmin, colour_bound(cnt_.data(), g_.data(), d));
        if (cbmin > budget) return true;
        return !radius_at_most(q, order_.data(), m, budget);
    }

    // The sound lower bound of bounds.lower_bound on the quotient graph.
    int bound(const Quot &q) {
        const int m = q.m;
        std::vector<int> island(m, -1);
        std::vector<int> order;
        order.reserve(m);
        std::vector<int> rad;
        std::vector<std::vector<int>> counts, gathers;
        for (int s = 0; s < m; ++s) {
            if (island[s] != -1) continue;
            size_t first = order.size();
            grow_island(q, s, static_cast<int>(rad.size()), island, order);
            std::vector<int> cnt(K_, 0), g(K_, 0);
            for (size_t h = first; h < order.size(); ++h) cnt[q.color[order[h]]]++;
            gather_costs(q, order.data() + first, static_cast<int>(order.size() - first), cnt.data(), g.data());
            counts.push_back(std::move(cnt));
            gathers.push_back(std::move(g));
            // radius (with the ring rule: min over v of ecc(v) + [its outermost ring has two colours]) with
            // cutoff: a BFS stops once its depth reaches the best value so far
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
                int qt, sum;
                int ecc = bfs_ecc(q, cv.second, best - 1, size, qt, sum);  // -1: every unreached node is
                if (ecc < 0) continue;                                    // at distance >= best
                // the ring rule: + 1 unless the ring at distance ecc (the queue's tail) is one colour
                int val = ecc + (ring_ && !tail_mono(q, qt, ecc) ? 1 : 0);
                if (val < best) best = val;
            }
            rad.push_back(best);
        }
        int result = -1;
        for (int d = 0; d < K_; ++d) {
            int total = 0;
            for (size_t i = 0; i < rad.size(); ++i)
                total += std::max(rad[i], colour_bound(counts[i].data(), gathers[i].data(), d));
            if (result < 0 || total < result) result = total;
        }
        return result;
    }

    struct Mv {
        int merged, k, c;
    };
    struct Frame {
        Quot q;
        std::vector<Mv> moves;
        std::vector<char> near;
        std::vector<unsigned char> key, rkey;
        // one-island nodes: distances between regions, far sets, colour counts (for the children's bound)
        std::vector<int16_t> dist;
        std::vector<uint64_t> far, tk, ge, cls;  // ge: {y : d(x, y) >= b1}; cls: colour classes (ring rule)
        std::vector<int> cnt, ds;
        std::vector<int> nb, gatherers;  // nb[x*K+e]: x's neighbours of colour e; regions touching all of e
    };
    std::vector<Frame> frames_;
    std::vector<int> cur_;  // the board of the node being searched (initial region -> colour), edited in place
    int kb_ = 0, nb_ = 0, width_ = 1;

    void setup_frames(int threshold) {
        kb_ = (n_ + 1) / 2;
        nb_ = (n_ + 7) / 8;
        int w = kb_ + 4 + nb_;
        if (w != width_) {
            width_ = w;
            table_.set_width(w);
        }
        if (static_cast<int>(frames_.size()) < threshold + 2) frames_.resize(threshold + 2);
        for (auto &f : frames_) {
            f.key.assign(width_, 0);
            f.rkey.assign(width_, 0);
            if (por_) f.near.assign(n_, 0);
        }
    }

    void store(const unsigned char *key, uint64_t h, int budget) {
        if (static_cast<long long>(table_.size()) >= table_limit_) table_.clear();
        table_.raise(key, h, budget);
    }

    void tick() {
        ++nodes_;
        if ((nodes_ & 255) != 0) return;
        if (has_deadline_ && std::chrono::steady_clock::now() > deadline_) throw Timeout{};
        if (stop_ && threshold_ < stop_len_ && stop_[threshold_]) throw Timeout{};
    }

    // A one-island node's region distances and, for children with budget b1, each region's far set
    // {y : d(x, y) > b1}. A child contracts the star S of the move; its distances are exactly
    // d'(x, y) = min(d(x, y), dS(x) + dS(y)) with dS(x) = min over s in S of d(x, s) (models/bounds.md).
    void prepare_children(Frame &f, const Quot &q, int b1) {
        const int m = q.m, W = (m + 63) / 64;
        f.dist.assign(static_cast<size_t>(m) * m, 0);
        for (int x = 0; x < m; ++x) {
            int far;
            bfs_full(q, x, dist_, far);
            int16_t *row = &f.dist[static_cast<size_t>(x) * m];
            for (int y = 0; y < m; ++y) row[y] = static_cast<int16_t>(dist_[y]);
        }
        f.far.assign(static_cast<size_t>(m) * W, 0);
        for (int x = 0; x < m; ++x) {
            const int16_t *row = &f.dist[static_cast<size_t>(x) * m];
            uint64_t *fx = &f.far[static_cast<size_t>(x) * W];
            for (int y = 0; y < m; ++y)
                if (row[y] > b1) fx[y >> 6] |= 1ULL << (y & 63);
        }
        if (ring_) {
            f.ge.assign(static_cast<size_t>(m) * W, 0);
            f.cls.assign(static_cast<size_t>(K_) * W, 0);
            for (int x = 0; x < m; ++x) {
                const int16_t *row = &f.dist[static_cast<size_t>(x) * m];
                uint64_t *gx = &f.ge[static_cast<size_t>(x) * W];
                for (int y = 0; y < m; ++y)
                    if (row[y] >= b1) gx[y >> 6] |= 1ULL << (y & 63);
                f.cls[static_cast<size_t>(q.color[x]) * W + (x >> 6)] |= 1ULL << (x & 63);
            }
        }
        f.cnt.assign(K_, 0);
        for (int a = 0; a < m; ++a) f.cnt[q.color[a]]++;
        f.ds.assign(m, 0);
        f.tk.assign(static_cast<size_t>(b1 + 1) * W, 0);
        f.nb.assign(static_cast<size_t>(m) * K_, 0);
        f.gatherers.assign(K_, 0);
        for (int x = 0; x < m; ++x) {
            int *row = &f.nb[static_cast<size_t>(x) * K_];
            for (int e = q.astart[x]; e < q.astart[x + 1]; ++e) row[q.color[q.adj[e]]]++;
            for (int e = 0; e < K_; ++e)
                if (f.cnt[e] > 0 && row[e] == f.cnt[e]) f.gatherers[e]++;
        }
    }

    // The child's exact colour bound min over d (bounds.colour_bound with gather_costs), from the parent's
    // neighbour counts: only regions touching the contracted star S change their counts.
    int child_colour_bound(Frame &f, const Quot &q, int a, int c, int merged) {
        const int m = q.m, x = q.color[a];
        int *cnt2 = cchild_.data(), *g2 = gchild_.data(), *snb = snb_.data();
        for (int e = 0; e < K_; ++e) cnt2[e] = f.cnt[e];
        cnt2[x] -= 1;
        cnt2[c] = f.cnt[c] - merged + 1;
        int st = next_stamp();  // stamp_ marks S; tstamp_ marks regions touching S
        stamp_[a] = st;
        for (int e = q.astart[a]; e < q.astart[a + 1]; ++e)
            if (q.color[q.adj[e]] == c) stamp_[q.adj[e]] = st;
        if (++tstamp_val_ == 0x7fffffff) {
            std::fill(tstamp_.begin(), tstamp_.end(), 0);
            tstamp_val_ = 1;
        }
        int ts = tstamp_val_;
        std::fill(snb, snb + K_, 0);
        auto visit = [&](int s) {
            for (int e = q.astart[s]; e < q.astart[s + 1]; ++e) {
                int y = q.adj[e];
                if (stamp_[y] == st) continue;
                if (tstamp_[y] != ts) {
                    tstamp_[y] = ts;
                    ta_[y] = 0;
                    tsc_[y] = 0;
                    snb[q.color[y]]++;
                }
                if (s == a) ta_[y] = 1;
                else tsc_[y]++;
            }
        };
        visit(a);
        for (int e = q.astart[a]; e < q.astart[a + 1]; ++e)
            if (q.color[q.adj[e]] == c) visit(q.adj[e]);
        for (int e = 0; e < K_; ++e) {
            g2[e] = cnt2[e] <= 1 ? 0 : cnt2[e] == 2 ? 1 : 2;
            if (g2[e] != 2) continue;
            if (e != c && snb[e] == cnt2[e]) {  // the contracted region touches all of them
                g2[e] = 1;
                continue;
            }
            bool found = false;
            if (e != x && e != c) {  // counts of regions outside S are unchanged
                int inside = 0;
                if (f.nb[static_cast<size_t>(a) * K_ + e] == f.cnt[e]) ++inside;
                for (int k = q.astart[a]; k < q.astart[a + 1]; ++k) {
                    int s = q.adj[k];
                    if (q.color[s] == c && f.nb[static_cast<size_t>(s) * K_ + e] == f.cnt[e]) ++inside;
                }
                found = f.gatherers[e] > inside;
            } else {
                for (int y = 0; y < m && !found; ++y) {
                    if (stamp_[y] == st) continue;
                    int n = f.nb[static_cast<size_t>(y) * K_ + e];
                    if (tstamp_[y] == ts) n += e == x ? -ta_[y] : 1 - tsc_[y];
                    found = n == cnt2[e];
                }
            }
            if (found) g2[e] = 1;
        }
        int best = 1 << 30;
        for (int d = 0; d < K_; ++d) best = std::min(best, colour_bound(cnt2, g2, d));
        return best;
    }

    // The child of (a, c): 1 = solved, 0 = its bound exceeds b1 (or b1 <= 0), -1 = to be searched.
    // Decides exactly what the child's own quotient, solved test and prunes() would decide.
    int child_outcome(Frame &f, const Quot &q, int a, int c, int merged, int b1) {
        const int m = q.m, W = (m + 63) / 64;
        if (m - merged == 1) return 1;
        if (b1 <= 0) return 0;
        // colour bound of the child: a's colour loses a region, c's regions adjacent to a merge into one.
        // With each non-single colour's gathering cost at its least (1) and at its most (2) the child's
        // colour bound lies between cblow and cbhigh; only in between is it computed exactly.
        int cblow = 1 << 30, cbhigh = 1 << 30;
        for (int d = 0; d < K_; ++d) {
            int others = 0;
            bool single = false;
            for (int e = 0; e < K_; ++e) {
                int ce = f.cnt[e] - (e == q.color[a] ? 1 : 0);
                if (e == c) ce = f.cnt[e] - merged + 1;
                if (e == d || ce == 0) continue;
                ++others;
                if (ce == 1) single = true;
            }
            cblow = std::min(cblow, others == 0 ? 0 : others + (single ? 0 : 1));
            cbhigh = std::min(cbhigh, others == 0 ? 0 : others + (single ? 0 : gather_ ? 2 : 1));
        }
        if (cblow > b1) return 0;
        if (cbhigh > b1 && child_colour_bound(f, q, a, c, merged) > b1) return 0;
        // radius of the child <= b1?
        int *ds = f.ds.data();
        const int16_t *ra = &f.dist[static_cast<size_t>(a) * m];
        for (int y = 0; y < m; ++y) ds[y] = ra[y];
        for (int e = q.astart[a]; e < q.astart[a + 1]; ++e) {
            int s = q.adj[e];
            if (q.color[s] != c) continue;
            const int16_t *rs = &f.dist[static_cast<size_t>(s) * m];
            for (int y = 0; y < m; ++y)
                if (rs[y] < ds[y]) ds[y] = rs[y];
        }
        int eccS = 0;
        for (int y = 0; y < m; ++y) eccS = std::max(eccS, ds[y]);
        if (eccS < b1) return -1;
        if (eccS == b1) {  // the contracted node's ring {y : dS(y) = b1} lies outside S (parent colours)
            if (!ring_) return -1;
            int e0 = -1;
            bool mono = true;
            for (int y = 0; y < m && mono; ++y)
                if (ds[y] == b1) {
                    if (e0 < 0) e0 = q.color[y];
                    else mono = q.color[y] == e0;
                }
            if (mono) return -1;
        }
        uint64_t *tk = f.tk.data();
        std::fill(tk, tk + static_cast<size_t>(b1 + 1) * W, 0);
        for (int y = 0; y < m; ++y)
            if (ds[y] <= b1) tk[static_cast<size_t>(ds[y]) * W + (y >> 6)] |= 1ULL << (y & 63);
        for (int k = 1; k <= b1; ++k)
            for (int w = 0; w < W; ++w) tk[static_cast<size_t>(k) * W + w] |= tk[static_cast<size_t>(k - 1) * W + w];
        for (int x = 0; x < m; ++x) {
            if (ds[x] == 0 || ds[x] > b1) continue;  // x in S (the contracted node is done), or too far from S
            const uint64_t *fx = &f.far[static_cast<size_t>(x) * W];
            const uint64_t *t = &tk[static_cast<size_t>(b1 - ds[x]) * W];
            bool ok = true;
            for (int w = 0; w < W; ++w)
                if (fx[w] & ~t[w]) {
                    ok = false;
                    break;
                }
            if (!ok) continue;
            if (!ring_) return -1;
            // x's ring in the child, {y : d'(x, y) = b1}: the S node when dS(x) = b1 (colour c), and the y outside
            // S with d(x, y) >= b1 and dS(x) + dS(y) >= b1 (tk[k] holds dS(y) <= k; tk[0] is S)
            const int kx = std::max(b1 - ds[x] - 1, 0);
            const uint64_t *gx = &f.ge[static_cast<size_t>(x) * W];
            const uint64_t *ex = &tk[static_cast<size_t>(kx) * W];
            int e0 = ds[x] == b1 ? c : -1;
            bool mono = true;
            for (int w = 0; w < W && mono; ++w) {
                uint64_t bits = gx[w] & ~ex[w];
                if (!bits) continue;
                if (e0 < 0) e0 = q.color[(w << 6) + __builtin_ctzll(bits)];
                mono = (bits & ~f.cls[static_cast<size_t>(e0) * W + w]) == 0;
            }
            if (mono) return -1;
        }
        return 0;
    }

    // prev_min: the smallest initial region of the previous move's clicked set P (-1: no order imposed);
    // near_prev: N[P] over initial regions; prev_color: the colour P had before it was clicked.
    bool dfs(int depth, int budget, int prev_min, const char *near_prev, int prev_color, bool root = false,
             bool checked = false) {
        tick();
        Frame &f = frames_[depth];
        Quot &q = f.q;
        quotient(cur_, q);
        bool one = true;
        for (int a = 1; a < q.m; ++a)
            if (q.color[a] != q.color[0]) one = false;
        if (one) return true;
        if (!checked && (budget <= 0 || prunes(q, budget))) return false;
        const bool one_island = checked || single_island_;  // read before the children overwrite it
        unsigned char *k = f.key.data();
        std::memset(k, 0, width_);
        for (int v = 0; v < n_; ++v) k[v / 2] = static_cast<unsigned char>(k[v / 2] | (cur_[v] << (4 * (v & 1))));
        const uint64_t kh = FailTable::hash(k, width_);
        if (table_.find(k, kh) >= budget) return false;
        bool restricted = false;  // the board plus the restriction (min P, P's old colour and N[P])
        unsigned char *rk = f.rkey.data();
        uint64_t rh = 0;
        if (por_store_ && prev_min >= 0) {
            restricted = true;
            std::memcpy(rk, k, kb_);
            std::memset(rk + kb_, 0, width_ - kb_);
            rk[kb_] = 0xff;
            rk[kb_ + 1] = static_cast<unsigned char>(prev_min & 0xff);
            rk[kb_ + 2] = static_cast<unsigned char>((prev_min >> 8) & 0xff);
            rk[kb_ + 3] = static_cast<unsigned char>(adjacent_ ? prev_color : 0xff);
            unsigned char *bits = rk + kb_ + 4;
            for (int v = 0; v < n_; ++v)
                if (near_prev[v]) bits[v / 8] = static_cast<unsigned char>(bits[v / 8] | (1 << (v & 7)));
            rh = FailTable::hash(rk, width_);
            if (table_.find(rk, rh) >= budget) return false;
        }

        std::vector<Mv> &moves = f.moves;
        moves.clear();
        bool pruned = false;
        const bool sym = root && !sigma_.empty();
        for (int a = 0; a < q.m; ++a) {
            if (sym && sigma_[q.rep[a]] < q.rep[a] && q.mstart[a + 1] - q.mstart[a] == 1) {
                pruned = true;  // the mirrored solution starts with sigma(r) < r
                continue;
            }
            int only = -1;  // >= 0: only this colour commutes with neither order skipped
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
                // adjacent to P but not containing it (P's smallest region lies in the merged region): the
                // move commutes with P's unless it paints P's old colour (lemma in strengthening.md §2)
                if (adjacent_ && q.comp[prev_min] != a) only = prev_color;
            }
            std::fill(merged_.begin(), merged_.end(), 0);
            for (int e = q.astart[a]; e < q.astart[a + 1]; ++e) merged_[q.color[q.adj[e]]]++;
            for (int c = 0; c < K_; ++c) {
                if (c == q.color[a]) continue;
                if (only >= 0 && c != only) {
                    pruned = true;
                    continue;
                }
                moves.push_back({merged_[c], a, c});
            }
        }
        std::stable_sort(moves.begin(), moves.end(), [](const Mv &x, const Mv &y) { return x.merged > y.merged; });
        char *near = por_ ? f.near.data() : nullptr;
        const bool fast = one_island && !moves.empty();
        if (fast) prepare_children(f, q, budget - 1);
        for (size_t mi = 0; mi < moves.size(); ++mi) {
            const Mv mv = moves[mi];
            const int a = mv.k;
            int out = 0;
            if (fast) {
                out = child_outcome(f, q, a, mv.c, mv.merged, budget - 1);
                if (out == 1) {
                    tick();
                    plan_.emplace_back(q.rep[a], mv.c);
                    return true;
                }
                if (out == 0) {
                    tick();  // the child's node, decided here without building it
                    continue;
                }
            }
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) cur_[q.members[i]] = mv.c;
            if (por_) {
                std::memset(near, 0, n_);
                for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) {
                    int v = q.members[i];
                    near[v] = 1;
                    for (int e = astart0_[v]; e < astart0_[v + 1]; ++e) near[adj0_[e]] = 1;
                }
            }
            // after a symmetry-restricted first move the second move is not ordered against it
            bool ok = dfs(depth + 1, budget - 1, sym ? -1 : q.rep[a], near, q.color[a], false, fast);
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) cur_[q.members[i]] = q.color[a];
            if (ok) {
                plan_.emplace_back(q.rep[a], mv.c);
                return true;
            }
        }
        if (!pruned) {
            store(k, kh, budget);
        } else if (restricted) {
            store(rk, rh, budget);
        }
        return false;
    }
};

const char *const CAPSULE = "kamicp._fastsearch.Search";

void destroy(PyObject *capsule) { delete static_cast<Search *>(PyCapsule_GetPointer(capsule, CAPSULE)); }

// The search behind a handle from create() (nullptr with a Python error set when it is not one).
Search *as_search(PyObject *cap) { return static_cast<Search *>(PyCapsule_GetPointer(cap, CAPSULE)); }

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
    int K, por, gather = 1, ring = 1, adjacent = 1;
    long long table_limit;
    if (!PyArg_ParseTuple(args, "OOiLi|ppp", &adj_obj, &start_obj, &K, &table_limit, &por, &gather, &ring,
                          &adjacent))
        return nullptr;
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
    s->gather_ = gather != 0;
    s->ring_ = ring != 0;
    s->adjacent_ = adjacent != 0;
    return PyCapsule_New(s, CAPSULE, destroy);
}

PyObject *py_set_symmetry(PyObject *, PyObject *args) {
    PyObject *cap, *sigma_obj;
    if (!PyArg_ParseTuple(args, "OO", &cap, &sigma_obj)) return nullptr;
    Search *s = as_search(cap);
    if (!s) return nullptr;
    std::vector<int> sigma;
    if (sigma_obj != Py_None && !to_int_list(sigma_obj, sigma)) return nullptr;
    s->sigma_ = std::move(sigma);
    Py_RETURN_NONE;
}

// set_stop(handle, address, length): the int array at `address` (shared memory the caller keeps alive as
// long as the handle) stops a search within horizon h once its entry h is non-zero; address 0 detaches.
PyObject *py_set_stop(PyObject *, PyObject *args) {
    PyObject *cap;
    unsigned long long address;
    int length;
    if (!PyArg_ParseTuple(args, "OKi", &cap, &address, &length)) return nullptr;
    Search *s = as_search(cap);
    if (!s) return nullptr;
    s->stop_ = reinterpret_cast<const volatile int *>(static_cast<uintptr_t>(address));
    s->stop_len_ = address ? length : 0;
    Py_RETURN_NONE;
}

// A plan as a Python list of (initial region, colour) tuples.
PyObject *plan_list(const std::vector<std::pair<int, int>> &moves) {
    PyObject *plan = PyList_New(0);
    for (auto &mv : moves) {
        PyObject *item = Py_BuildValue("(ii)", mv.first, mv.second);
        PyList_Append(plan, item);
        Py_DECREF(item);
    }
    return plan;
}

PyObject *py_within(PyObject *, PyObject *args) {
    PyObject *cap;
    int threshold;
    double time_limit;
    if (!PyArg_ParseTuple(args, "Oid", &cap, &threshold, &time_limit)) return nullptr;
    Search *s = as_search(cap);
    if (!s) return nullptr;
    int status;
    Py_BEGIN_ALLOW_THREADS status = s->within(threshold, time_limit);
    Py_END_ALLOW_THREADS if (status == 2) return Py_BuildValue("(sOL)", "unknown", Py_None, s->nodes());
    if (status == 0) return Py_BuildValue("(sOL)", "infeasible", Py_None, s->nodes());
    PyObject *plan = plan_list(s->plan());
    PyObject *out = Py_BuildValue("(sOL)", "feasible", plan, s->nodes());
    Py_DECREF(plan);
    return out;
}

PyObject *py_beam(PyObject *, PyObject *args) {
    PyObject *cap;
    int width, fan, closeness = 1;
    double time_limit;
    if (!PyArg_ParseTuple(args, "Oiid|p", &cap, &width, &fan, &time_limit, &closeness)) return nullptr;
    Search *s = as_search(cap);
    if (!s) return nullptr;
    bool ok;
    Py_BEGIN_ALLOW_THREADS ok = s->beam(width, fan, time_limit, closeness);
    Py_END_ALLOW_THREADS if (!ok) Py_RETURN_NONE;
    return plan_list(s->plan());
}

PyObject *py_rollout(PyObject *, PyObject *args) {
    PyObject *cap;
    int limit;
    double time_limit;
    if (!PyArg_ParseTuple(args, "Oid", &cap, &limit, &time_limit)) return nullptr;
    Search *s = as_search(cap);
    if (!s) return nullptr;
    std::vector<std::pair<int, int>> moves;
    int steps;
    Py_BEGIN_ALLOW_THREADS steps = s->rollout_ply(limit, time_limit, moves);
    Py_END_ALLOW_THREADS if (steps < 0) Py_RETURN_NONE;
    return plan_list(moves);
}

PyMethodDef methods[] = {
    {"rollout", py_rollout, METH_VARARGS, "rollout(handle, limit, time_limit) -> a plan of at most limit moves (one move, then a pivot rollout) or None"},
    {"set_symmetry", py_set_symmetry, METH_VARARGS, "set_symmetry(handle, sigma or None)"},
    {"set_stop", py_set_stop, METH_VARARGS, "set_stop(handle, address of a shared int array or 0, length)"},
    {"beam", py_beam, METH_VARARGS, "beam(handle, width, fan, time_limit, closeness=True) -> plan or None (an upper bound)"},
    {"create", py_create, METH_VARARGS, "create(adj, start, num_colors, table_limit, por, gather=True, ring=True, adjacent=True) -> handle"},
    {"within", py_within, METH_VARARGS,
     "within(handle, threshold, time_limit or -1) -> (status, plan or None, nodes)"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastsearch", "Compiled IDA* core of kamicp (optional).", -1,
                      methods};

}  // namespace

PyMODINIT_FUNC PyInit__fastsearch(void) { return PyModule_Create(&module); }
