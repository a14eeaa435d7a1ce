// Unit "Flood-It A*" (fixed pivot, models/floodit.md and models/bounds.md, "The layered bound"): A* on the
// flooded set, a bitset over the initial regions. Self-contained: it shares nothing with the Kami units.
//
// A state is the flooded set alone: a move that absorbs nothing is never needed (kamicp/floodit/search.py),
// and the moves that absorb something from a set F, and what they absorb, do not depend on the colour the
// flood has (no region of the last colour played, nor of the flood's colour, touches F). Only the end
// depends on it when the other islands fix a final colour: a child that floods the island is a solution
// of g + 1 (+ 1 when its colour is not the final one) moves and is never stored. Moves are pruned
// (models/bounds.md): a move into a dead end (it opens no new region and its colour keeps regions
// elsewhere) is never tried; independent moves are played in a fixed order ("Moves in a fixed order": a move
// whose regions all touched the set before the last move is played before that move instead, where that
// absorbs more or the colours' order says so), which needs the last move and the set before it, kept as
// the parent pointer; without that order (a switch for comparisons) a vanishing colour is the only move.
//
// f = g + h with h the layered bound (admissible, proof in models/bounds.md), raised along each edge to
// h(parent) - 1 (also admissible: one move lowers the optimum by at most one). Open list: buckets by f,
// then by g (the deepest first), last in first out within one. A shorter path to a stored set reopens it.
// Children with f >= the best solution found are not stored: once the smallest f in the open list reaches
// that length (or the list is empty) the solution is proven shortest. Moves are kept as a parent pointer
// and a colour per stored set. Memory is bounded by a cap on stored sets: at the cap the search stops with
// the smallest f in the open list as a proven lower bound.
//
// With several lanes (threads) the search pops a batch of sets of one f, finds every set's children and
// walks their bounds in parallel (reading only), then stores them set by set in the batch's order, as
// expanding each alone would (models/bounds.md, "Expanding in batches"): a run repeats node for node.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp)

using Word = std::uint64_t;


struct FloodBoard {
    int n = 0, K = 0, W = 0;
    int start = 0, final_colour = -1;
    std::vector<int> colour;  // per region
    std::vector<Word> nbr;  // n x W: the neighbours of each region
    std::vector<Word> cmask;  // K x W: the island's regions of each colour
    std::vector<Word> island;  // W

    FloodBoard(const std::vector<std::vector<int>> &adj, std::vector<int> colours, int K_, int start_, int final_)
        : n(static_cast<int>(adj.size())), K(K_), W((static_cast<int>(adj.size()) + 63) / 64), start(start_),
          final_colour(final_), colour(std::move(colours)) {
        nbr.assign(static_cast<size_t>(n) * W, 0);
        cmask.assign(static_cast<size_t>(K) * W, 0);
        island.assign(W, 0);
        for (int v = 0; v < n; ++v)
            for (int w : adj[v]) nbr[static_cast<size_t>(v) * W + w / 64] |= Word{1} << (w % 64);
        fill_island();
    }

    // The same from adjacency in CSR form (the search's quotient graphs, pivot_test.hpp: no lists to copy). A
    // copy with another start in the same island is the board from that start.
    FloodBoard(int n_, int K_, const int *astart, const int *adj, const int *colours, int start_)
        : n(n_), K(K_), W((n_ + 63) / 64), start(start_), colour(colours, colours + n_) {
        nbr.assign(static_cast<size_t>(n) * W, 0);
        cmask.assign(static_cast<size_t>(K) * W, 0);
        island.assign(W, 0);
        for (int v = 0; v < n; ++v)
            for (int e = astart[v]; e < astart[v + 1]; ++e)
                nbr[static_cast<size_t>(v) * W + adj[e] / 64] |= Word{1} << (adj[e] % 64);
        fill_island();
    }

    // island: the regions the start reaches through `nbr`; cmask: the island's regions of each colour
    void fill_island() {
        std::vector<int> stack{start};
        island[start / 64] |= Word{1} << (start % 64);
        while (!stack.empty()) {
            const int v = stack.back();
            stack.pop_back();
            cmask[static_cast<size_t>(colour[v]) * W + v / 64] |= Word{1} << (v % 64);
            const Word *row = nb(v);
            for (int i = 0; i < W; ++i)
                for (Word b = row[i] & ~island[i]; b; b &= b - 1) {
                    island[i] |= b & -b;
                    stack.push_back(i * 64 + __builtin_ctzll(b));
                }
        }
    }

    const Word *nb(int v) const { return &nbr[static_cast<size_t>(v) * W]; }
    const Word *cm(int c) const { return &cmask[static_cast<size_t>(c) * W]; }

    // out |= the neighbours of every region in `set` (WN > 0: W known at compile time)
    template <int WN>
    void dilate(const Word *set, Word *out) const {
        const int W = WN > 0 ? WN : this->W;
        if constexpr (WN > 0) {  // accumulate in registers: `out` may alias a row as far as the compiler knows
            Word acc[WN] = {};
            const Word *rows = nbr.data();  // rows WN words apart: a shift, not a multiply by the run-time W
            for (int i = 0; i < WN; ++i)
                for (Word b = set[i]; b; b &= b - 1) {
                    const Word *row = rows + static_cast<size_t>(i * 64 + __builtin_ctzll(b)) * WN;
#pragma GCC unroll 8
                    for (int j = 0; j < WN; ++j) acc[j] |= row[j];
                }
#pragma GCC unroll 8
            for (int j = 0; j < WN; ++j) out[j] |= acc[j];
            return;
        }
        for (int i = 0; i < W; ++i)
            for (Word b = set[i]; b; b &= b - 1) {
                const Word *row = nb(i * 64 + __builtin_ctzll(b));
                for (int j = 0; j < W; ++j) out[j] |= row[j];
            }
    }

    // the unflooded neighbours of the flooded set F
    template <int WN>
    void frontier(const Word *F, Word *out) const {
        const int W = WN > 0 ? WN : this->W;
        std::fill(out, out + W, Word{0});
        dilate<WN>(F, out);
        for (int j = 0; j < W; ++j) out[j] &= ~F[j];
    }

    template <int WN>
    bool is_island(const Word *F) const {
        const int W = WN > 0 ? WN : this->W;
        for (int j = 0; j < W; ++j)
            if (F[j] != island[j]) return false;
        return true;
    }
};

// The layered bound of a flooded set F whose frontier is N (models/bounds.md): walk outwards; when some
// colours have no region outside the walked set and its frontier, each needs a move of its own: add their
// number and walk into the frontier regions of those colours only; otherwise add one move and walk into
// the whole frontier. Bitsets only: `rest` holds the island's regions neither walked nor in the frontier,
// so a colour is done when its mask meets the frontier and misses `rest` (no per-region counting).
template <int WN>
struct Layered {
    const FloodBoard &b;
    std::vector<Word> front, rest, add, grown;

    explicit Layered(const FloodBoard &board)
        : b(board), front(board.W), rest(board.W), add(board.W), grown(board.W) {}

    // `limit`: stop once the sum exceeds it (the sum so far is a lower bound too: the rest only adds)
    int operator()(const Word *F, const Word *N, int limit = 1 << 30) {
        if constexpr (WN > 0) {  // the sets in registers
            Word f[WN], r[WN], a[WN], g[WN];
            return walk<WN>(F, N, limit, f, r, a, g);
        }
        return walk<0>(F, N, limit, front.data(), rest.data(), add.data(), grown.data());
    }

private:
    // Each colour with regions outside the walked set is counted once, in the step where its last regions
    // are in the frontier (models/bounds.md): the sum so far plus the number of such colours is a lower
    // bound on the whole sum, and the walk stops once that exceeds `limit`. A colour without regions in
    // `rest` has its last ones in the frontier: it is done now.
    template <int WL>
    int walk(const Word *F, const Word *N, int limit, Word *front, Word *rest, Word *add, Word *grown) const {
        const int W = WL > 0 ? WL : b.W, K = b.K;
        const Word *masks = b.cmask.data();  // colour c's mask at c x W (W a constant when WL > 0)
        const auto cm = [&](int c) { return masks + static_cast<size_t>(c) * W; };
#pragma GCC unroll 8
        for (int j = 0; j < W; ++j) {
            front[j] = N[j];
            rest[j] = b.island[j] & ~F[j] & ~N[j];
        }
        std::uint32_t pending = 0;  // the colours with regions in the frontier or beyond (K <= 15, module.cpp)
        int left = 0;
        for (int c = 0; c < K; ++c) {
            const Word *m = cm(c);
            Word any = 0;
#pragma GCC unroll 8
            for (int j = 0; j < W; ++j) any |= m[j] & (front[j] | rest[j]);
            if (any) {
                pending |= 1u << c;
                ++left;
            }
        }
        int h = 0;
        if (left > limit) return left;
        while (pending) {
            int gone = 0;  // colours left only in the frontier
#pragma GCC unroll 8
            for (int j = 0; j < W; ++j) add[j] = 0;
            for (std::uint32_t p = pending; p; p &= p - 1) {
                const int c = __builtin_ctz(p);
                const Word *m = cm(c);
                Word beyond = 0;
#pragma GCC unroll 8
                for (int j = 0; j < W; ++j) beyond |= m[j] & rest[j];
                if (!beyond) {
                    ++gone;
                    pending &= ~(1u << c);
#pragma GCC unroll 8
                    for (int j = 0; j < W; ++j) add[j] |= m[j] & front[j];
                }
            }
            if (gone) {
                h += gone;
                left -= gone;
            } else {
                ++h;
#pragma GCC unroll 8
                for (int j = 0; j < W; ++j) add[j] = front[j];
            }
            if (h + left > limit) return h + left;
            if (!pending) break;
#pragma GCC unroll 8
            for (int j = 0; j < W; ++j) grown[j] = 0;
            b.dilate<WL>(add, grown);
#pragma GCC unroll 8
            for (int j = 0; j < W; ++j) {
                grown[j] &= rest[j];  // new to the frontier
                rest[j] &= ~grown[j];
                front[j] = (front[j] & ~add[j]) | grown[j];
            }
        }
        return h;
    }
};

enum class FloodStatus { running, optimal, capped, no_solution };

// Runs job(lane, pos) for every pos in [0, n) on `lanes` threads, the caller's being lane 0; positions are
// handed out in small chunks. The other threads live from the first run() to stop(): the search stops
// them before it returns to Python, so no thread outlives a call (nor meets a fork). Between two runs a
// thread spins a little (the caller's serial work between batches is short) before it sleeps.
class Lanes {
public:
    explicit Lanes(int lanes) : lanes_(std::max(1, lanes)) {}
    Lanes(const Lanes &) = delete;
    Lanes &operator=(const Lanes &) = delete;
    ~Lanes() { stop(); }

    int size() const { return lanes_; }

    void run(int n, const std::function<void(int, int)> &job) {
        if (lanes_ == 1 || n < 2) {
            for (int pos = 0; pos < n; ++pos) job(0, pos);
            return;
        }
        if (threads_.empty())
            for (int lane = 1; lane < lanes_; ++lane)
                threads_.emplace_back([this, lane, r = round_.load()] { loop(lane, r); });
        job_ = &job;
        n_ = n;
        next_.store(0);
        busy_.store(lanes_ - 1);
        bool sleeping;
        {
            std::lock_guard<std::mutex> lock(mu_);  // a thread going to sleep sees the new round or is woken
            round_.fetch_add(1);
            sleeping = sleepers_ > 0;
        }
        if (sleeping) wake_.notify_all();
        work(0);
        for (int spins = 0; busy_.load() > 0; ++spins)  // the others end their last chunk about now
            if (spins > SPINS) std::this_thread::yield();
        job_ = nullptr;
    }

    void stop() {
        if (threads_.empty()) return;
        {
            std::lock_guard<std::mutex> lock(mu_);
            quit_.store(true);
            round_.fetch_add(1);
        }
        wake_.notify_all();
        for (auto &t : threads_) t.join();
        threads_.clear();
        quit_.store(false);
    }

private:
    static constexpr int CHUNK = 4;
    static constexpr int SPINS = 1 << 12;  // about a tenth of a millisecond of looking before sleeping
    int lanes_;
    std::vector<std::thread> threads_;
    std::mutex mu_;
    std::condition_variable wake_;
    std::atomic<long long> round_{0};
    std::atomic<int> busy_{0}, next_{0};
    std::atomic<bool> quit_{false};
    int sleepers_ = 0, n_ = 0;
    const std::function<void(int, int)> *job_ = nullptr;

    void loop(int lane, long long seen) {
        for (;;) {
            for (int spins = 0; round_.load() == seen; ++spins) {
                if (spins < SPINS) {
                    __builtin_ia32_pause();
                    continue;
                }
                std::unique_lock<std::mutex> lock(mu_);
                ++sleepers_;
                wake_.wait(lock, [&] { return round_.load() != seen; });
                --sleepers_;
            }
            seen = round_.load();
            if (quit_.load()) return;
            work(lane);
            busy_.fetch_sub(1);
        }
    }

    void work(int lane) {
        for (;;) {
            int pos = next_.fetch_add(CHUNK);
            if (pos >= n_) return;
            for (const int end = std::min(n_, pos + CHUNK); pos < end; ++pos) (*job_)(lane, pos);
        }
    }
};

// What the binding sees of a search, whatever its width.
class FloodSearch {
public:
    virtual ~FloodSearch() = default;
    virtual FloodStatus run(double seconds) = 0;
    virtual int lower() const = 0;
    virtual int root_bound() const = 0;
    virtual int best_length() const = 0;
    virtual const std::vector<int> &plan() const = 0;
    virtual long long stored() const = 0;
    virtual long long expanded() const = 0;
    virtual long long bytes() const = 0;
    virtual int bound_of(const std::vector<int> &regions) = 0;
};

// WN > 0: the bitsets' width in words, fixed at compile time (the loops over words unrolled); 0: any width
template <int WN>
class FloodAstar : public FloodSearch {
public:
    // `limit` >= 0: only solutions of at most `limit` moves are looked for (none: no_solution, lower() = limit + 1);
    // `lanes`: threads that expand a batch of sets together (1: one set at a time)
    // `order`: the order of independent moves (models/bounds.md, "Moves in a fixed order"); off for comparisons
    FloodAstar(FloodBoard board, long long cap, int limit = -1, int lanes = 1, bool order = true)
        : b_(std::move(board)), bound_(b_), cap_(cap), ceiling_(limit < 0 ? NO_CHILD : limit + 1), order_(order),
          pool_(lanes) {
        W_ = WN > 0 ? WN : b_.W;
        while ((size_t{2} << block_bits_) * W_ <= (size_t{1} << 22)) ++block_bits_;  // about 32 MB of sets a block
        // about 2^20 words of bound work between looks at the clock (one node's bound is about n x W)
        const long long work = std::max<long long>(1, static_cast<long long>(b_.n) * W_ * b_.K);
        while (poll_mask_ > 0 && work * (poll_mask_ + 1) > (1LL << 20)) poll_mask_ >>= 1;
        tmp_.assign(W_, 0);
        front_.assign(W_, 0);
        for (int lane = 0; lane < pool_.size(); ++lane) scratch_.emplace_back(b_);
        batch_size_ = pool_.size() == 1 ? 1 : BATCH;
        table_.assign(size_t{1} << 10, EMPTY);  // grows as sets are stored: small runs (pivot_test.hpp) stay cheap
        std::vector<Word> root(W_, 0);
        root[b_.start / 64] |= Word{1} << (b_.start % 64);
        if (b_.template is_island<WN>(root.data())) {  // solved already, or one move to the final colour
            best_len_ = b_.final_colour >= 0 && b_.colour[b_.start] != b_.final_colour ? 1 : 0;
            if (best_len_) best_plan_ = {b_.final_colour};
            return;
        }
        b_.template frontier<WN>(root.data(), front_.data());
        int h = bound_(root.data(), front_.data());
        root_bound_ = h;
        lower_ = h;
        const std::uint64_t hr = hash(root.data());
        if (room()) insert(slot(root.data(), hr), root.data(), hr, NONE, NO_MOVE, 0, h);
    }

    // Search for up to `seconds` (< 0: no limit): running (call again), optimal (plan() is proven
    // shortest), capped (lower() is all that is proven) or no_solution.
    FloodStatus run(double seconds) override {
        using clock = std::chrono::steady_clock;
        const auto stop = clock::now() + std::chrono::duration<double>(seconds < 0 ? 1e12 : seconds);
        if (capped_) return FloodStatus::capped;
        struct Join {  // the lanes' threads end with the call
            Lanes &lanes;
            ~Join() { lanes.stop(); }
        } join{pool_};
        for (long long polled = poll_mask_ + 1;;) {
            if (best_len_ >= 0 && best_len_ <= lower_) return done(FloodStatus::optimal);
            batch_.clear();  // sets of one f only: their children of that f are expanded after them
            std::uint32_t idx;
            for (int level = -1; static_cast<int>(batch_.size()) < batch_size_ && pop(idx, level);) batch_.push_back(idx);
            if (batch_.empty()) {
                if (best_len_ >= 0) return done(FloodStatus::optimal);
                if (ceiling_ < NO_CHILD) lower_ = std::max(lower_, ceiling_);
                return FloodStatus::no_solution;
            }
            if (best_len_ >= 0 && best_len_ <= lower_) return done(FloodStatus::optimal);
            try {
                expand_batch();
            } catch (const std::bad_alloc &) {  // out of memory (an address-space limit): as at the cap
                capped_ = true;
            }
            if (capped_) return FloodStatus::capped;
            polled += static_cast<long long>(batch_.size());
            if (polled > poll_mask_) {
                polled = 0;
                if (clock::now() > stop) return FloodStatus::running;
            }
        }
    }

    int lower() const override { return lower_; }
    int root_bound() const override { return root_bound_; }
    int best_length() const override { return best_len_; }
    const std::vector<int> &plan() const override { return best_plan_; }
    long long stored() const override { return static_cast<long long>(count_); }
    long long expanded() const override { return expanded_; }
    long long bytes() const override {
        return static_cast<long long>(blocks_.size() * (size_t{1} << block_bits_) * (W_ * sizeof(Word) + sizeof(Meta)) +
                                      table_.capacity() * 4 + queued_ * 4);
    }
    // the bound of a flooded set given as region indices (for the tests' cross-check)
    int bound_of(const std::vector<int> &regions) override {
        std::fill(tmp_.begin(), tmp_.end(), Word{0});
        for (int v : regions) tmp_[v / 64] |= Word{1} << (v % 64);
        b_.template frontier<WN>(tmp_.data(), front_.data());
        return bound_(tmp_.data(), front_.data());
    }

private:
    int w() const { return WN > 0 ? WN : W_; }  // the width, a constant the loops unroll over when WN > 0

    static constexpr std::uint32_t EMPTY = 0xffffffffu;
    // A table entry: the set's index in its low INDEX_BITS bits, the top bits of its hash above them (a
    // probe loads a stored set only when these agree). The cap on stored sets keeps indices below the limit.
    static constexpr int INDEX_BITS = 28;
    static constexpr std::uint32_t INDEX_MASK = (1u << INDEX_BITS) - 1;
    static constexpr long long MAX_SETS = INDEX_MASK;  // EMPTY's index part is never a set's
    static constexpr std::uint32_t NONE = 0xffffffffu;
    static constexpr int MAXF = 250;  // f, g and h live in bytes: beyond, the search stops as at the cap
    static constexpr int NO_CHILD = 1 << 20;  // no limit, no child
    static constexpr int BATCH = 2048;  // sets expanded together when there are several lanes
    // A stored set's `move`: the colour of the last move (K <= 15) and FREE: the set was reached at its g by
    // two paths the order cannot tell apart, so it imposes nothing on its children (models/bounds.md, "Moves
    // in a fixed order").
    static constexpr std::uint8_t MOVE_MASK = 0x0f, NO_MOVE = 0x0f, FREE = 0x10;
    // What a set reached again at its g by another parent changes: nothing, its parent (the new one is
    // preferred), or its FREE mark; AGAIN marks a Kid that carries such a change to commit()
    enum Arrival { KEEP, SWITCH, TIE };
    static constexpr std::uint8_t AGAIN = 0x40;

    FloodBoard b_;
    Layered<WN> bound_;
    long long cap_;
    long long poll_mask_ = 1023;  // expansions between looks at the clock, less one
    int ceiling_;  // solutions of this many moves or more are not looked for
    bool order_;  // independent moves in a fixed order
    int W_ = WN;
    // What a stored set keeps besides its bits: moves so far, bound, the last move (colour and marks, see
    // MOVE_MASK), and the f it is queued at (its children of that f are stored next; 255: none)
    struct Meta {
        std::uint32_t parent;
        std::uint8_t g, h, move, F;
    };
    int block_bits_ = 0;  // 2^block_bits_ sets per block: the store grows without copying itself
    std::vector<std::unique_ptr<Word[]>> blocks_;  // W_ words per stored set
    std::vector<std::unique_ptr<Meta[]>> metas_;  // one Meta per stored set, blocked alike
    size_t count_ = 0;  // stored sets
    std::vector<std::uint32_t> table_;  // open addressing over stored sets (entries: see INDEX_BITS)
    std::vector<std::vector<std::vector<std::uint32_t>>> open_;  // [f][g] -> set indices
    long long queued_ = 0, expanded_ = 0;
    int fmin_ = 0;
    int lower_ = 0, root_bound_ = 0, best_len_ = -1;
    bool capped_ = false;
    std::vector<int> best_plan_;
    std::vector<Word> tmp_, front_;

    // A lane's buffers for one expansion: per child what it absorbs, its set, its frontier, hash and move
    struct Scratch {
        Layered<WN> bound;
        std::vector<Word> tmp, front, grows, children, cfronts;
        std::vector<std::uint64_t> hashes;
        std::vector<int> colours;
        explicit Scratch(const FloodBoard &b)
            : bound(b), tmp(b.W), front(b.W), grows(static_cast<size_t>(b.K) * b.W),
              children(static_cast<size_t>(b.K) * b.W), cfronts(static_cast<size_t>(b.K) * b.W), hashes(b.K),
              colours(b.K) {}
    };
    // What the expansion of one set found: its children to store (in kid_ and kidsets_ at pos x K), the
    // smallest f of those withheld, its shortest solution (length and last move, or -1)
    struct Found {
        std::uint32_t idx;
        int g, next, kids, solution, solution_colour;
        std::uint32_t before;  // the parent whose move the order looked at (NONE: no order imposed)
    };
    struct Kid {
        std::uint64_t hash;
        size_t slot;  // where the table had it, or the empty slot where it belongs, while generating
        std::uint8_t move, h;  // the move's colour (with AGAIN: the child is stored already), the bound
    };
    Lanes pool_;
    std::vector<Scratch> scratch_;  // per lane
    int batch_size_ = 1, snapshot_best_ = NO_CHILD;
    size_t snapshot_table_ = 0;  // the table's size while the batch was generated
    std::vector<std::uint32_t> batch_;
    std::vector<Found> found_;
    std::vector<Kid> kid_;
    std::vector<Word> kidsets_;

    FloodStatus done(FloodStatus s) {
        if (s == FloodStatus::optimal) lower_ = best_len_;
        return s;
    }

    size_t block_mask() const { return (size_t{1} << block_bits_) - 1; }
    const Word *set(std::uint32_t i) const { return &blocks_[i >> block_bits_][(i & block_mask()) * w()]; }
    Meta &meta(std::uint32_t i) { return metas_[i >> block_bits_][i & block_mask()]; }
    const Meta &meta(std::uint32_t i) const { return metas_[i >> block_bits_][i & block_mask()]; }

    std::uint64_t hash(const Word *s) const {
        std::uint64_t h = 0x9e3779b97f4a7c15ull;
        for (int j = 0; j < w(); ++j) {
            h ^= s[j] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
            h *= 0xff51afd7ed558ccdull;
        }
        return h ^ (h >> 29);
    }

    bool same(const Word *a, const Word *b) const {
        if constexpr (WN > 0) {
            Word diff = 0;
            for (int j = 0; j < WN; ++j) diff |= a[j] ^ b[j];
            return diff == 0;
        }
        return std::memcmp(a, b, sizeof(Word) * W_) == 0;
    }

    static std::uint32_t tag(std::uint64_t h) { return static_cast<std::uint32_t>(h >> 32) & ~INDEX_MASK; }

    // the slot holding s, or the empty slot where it belongs
    size_t slot(const Word *s, std::uint64_t h) const { return slot_from(h & (table_.size() - 1), s, h); }

    // the same, probing from slot i on (a slot on s's probe path no further than where s is or belongs)
    size_t slot_from(size_t i, const Word *s, std::uint64_t h) const {
        const size_t mask = table_.size() - 1;
        const std::uint32_t t = tag(h);
        for (;; i = (i + 1) & mask) {
            const std::uint32_t e = table_[i];
            if (e == EMPTY || ((e & ~INDEX_MASK) == t && same(set(e & INDEX_MASK), s))) return i;
        }
    }

    // the index of the set in slot i, or EMPTY
    std::uint32_t at(size_t i) const { return table_[i] == EMPTY ? EMPTY : table_[i] & INDEX_MASK; }

    void grow_table() {
        std::vector<std::uint32_t> old(table_.size() * 2, EMPTY);
        old.swap(table_);
        const size_t mask = table_.size() - 1;
        for (std::uint32_t e : old)
            if (e != EMPTY) {
                size_t i = hash(set(e & INDEX_MASK)) & mask;
                while (table_[i] != EMPTY) i = (i + 1) & mask;
                table_[i] = e;
            }
    }

    void push(std::uint32_t idx, int g, int f) {
        if (f >= MAXF) {
            capped_ = true;  // never drop a set silently: that would void the proof
            return;
        }
        if (static_cast<int>(open_.size()) <= f) open_.resize(f + 1);
        auto &row = open_[f];
        if (static_cast<int>(row.size()) <= g) row.resize(g + 1);
        row[g].push_back(idx);
        ++queued_;
        fmin_ = std::min(fmin_, f);
    }

    // the next set to expand, of f `level` only when level >= 0 (then level is its f)
    bool pop(std::uint32_t &idx, int &level) {
        for (; fmin_ < static_cast<int>(open_.size()); ++fmin_) {
            if (level >= 0 && fmin_ != level) return false;
            auto &row = open_[fmin_];
            for (int g = static_cast<int>(row.size()) - 1; g >= 0; --g) {
                auto &bucket = row[g];
                while (!bucket.empty()) {
                    idx = bucket.back();
                    bucket.pop_back();
                    --queued_;
                    if (meta(idx).g != g || meta(idx).F != fmin_) continue;  // stale: reached shorter, or rescheduled
                    lower_ = std::max(lower_, fmin_);
                    level = fmin_;
                    return true;
                }
                if (g + 1 == static_cast<int>(row.size())) row.pop_back();
            }
            std::vector<std::vector<std::uint32_t>>().swap(row);
        }
        return false;
    }

    // Make room for one more set (grows the table: slots found before are void), false at the cap.
    bool room() {
        if (static_cast<long long>(count_) >= std::min(cap_, MAX_SETS)) {
            capped_ = true;
            return false;
        }
        if ((count_ + 1) * 10 > table_.size() * 7) grow_table();  // at most 70 % full
        return true;
    }

    // Store s (found at slot i by slot(), after room()) reached in g moves, or give a stored s the shorter path.
    void insert(size_t i, const Word *s, std::uint64_t hs, std::uint32_t parent, std::uint8_t mv, int g, int h) {
        if (table_[i] != EMPTY) {  // seen: keep the shorter path (and its marks: FREE is cleared)
            const std::uint32_t k = table_[i] & INDEX_MASK;
            Meta &m = meta(k);
            if (g >= m.g) return;
            m.parent = parent;
            m.move = mv;
            m.g = static_cast<std::uint8_t>(g);
            m.h = static_cast<std::uint8_t>(std::max<int>(m.h, h));
            m.F = static_cast<std::uint8_t>(g + m.h);
            push(k, g, g + m.h);
            return;
        }
        const auto k = static_cast<std::uint32_t>(count_++);
        if ((k & block_mask()) == 0) {
            blocks_.emplace_back(new Word[(size_t{1} << block_bits_) * W_]);
            metas_.emplace_back(new Meta[size_t{1} << block_bits_]);
        }
        std::copy(s, s + w(), &blocks_[k >> block_bits_][(k & block_mask()) * w()]);
        meta(k) = Meta{parent, static_cast<std::uint8_t>(g), static_cast<std::uint8_t>(h), mv,
                       static_cast<std::uint8_t>(g + h)};
        table_[i] = tag(hs) | k;
        push(k, g, g + h);
    }

    void record(std::uint32_t idx, int colour, int length) {
        best_len_ = length;
        best_plan_.clear();
        if (length > meta(idx).g + 1) best_plan_.push_back(b_.final_colour);
        best_plan_.push_back(colour);
        for (std::uint32_t k = idx; meta(k).parent != NONE; k = meta(k).parent)
            best_plan_.push_back(meta(k).move & MOVE_MASK);
        std::reverse(best_plan_.begin(), best_plan_.end());
    }

    // A colour all of whose unflooded regions touch the flooded set F (front is F's frontier), or -1.
    // Playing it first loses nothing (models/bounds.md, "Colours that vanish"), so it is F's only child.
    int vanishing(const Word *F, const Word *front) const {
        for (int c = 0; c < b_.K; ++c) {
            const Word *m = b_.cm(c);
            bool inside = false, outside = false;
            for (int j = 0; j < w(); ++j) {
                inside |= (m[j] & front[j]) != 0;
                outside |= (m[j] & ~front[j] & ~F[j]) != 0;
            }
            if (inside && !outside) return c;
        }
        return -1;
    }

    // Expand a batch of popped sets: each set's children are found and their bounds walked in parallel
    // (reading the store and the table only), then stored one set after the other in the batch's order, as
    // if each set had been expanded alone (models/bounds.md, "Expanding in batches").
    void expand_batch() {
        const int n = static_cast<int>(batch_.size());
        if (static_cast<int>(found_.size()) < n) grow_outputs(n);
        snapshot_best_ = best_len_ >= 0 ? std::min(best_len_, ceiling_) : ceiling_;
        snapshot_table_ = table_.size();
        pool_.run(n, [this](int lane, int pos) { generate(batch_[pos], scratch_[lane], found_[pos], pos); });
        for (int pos = 0; pos < n && !capped_; ++pos) commit(found_[pos], pos);
        expanded_ += n;
    }

    // The children of the set idx that are worth storing now, the smallest f of those withheld and the
    // shortest solution among them, into `out` and this position of kid_ and kidsets_ (reads shared state only).
    void generate(std::uint32_t idx, Scratch &sc, Found &out, int pos) {
        const Meta me = meta(idx);
        const int g = me.g, hp = me.h, F = me.F;
        Word *parent = sc.tmp.data(), *front = sc.front.data();
        std::copy(set(idx), set(idx) + w(), parent);
        b_.template frontier<WN>(parent, front);
        // a vanishing colour is played alone, unless the order of independent moves is kept (it replaces that
        // rule: models/bounds.md, "Moves in a fixed order")
        const int only = b_.final_colour < 0 && !order_ ? vanishing(parent, front) : -1;
        const bool ordered = order_ && me.parent != NONE && !(me.move & FREE);
        const Word *before = ordered ? set(me.parent) : nullptr;  // the set before the last move
        out = Found{idx, g, NO_CHILD, 0, -1, -1, ordered ? me.parent : NONE};
        const int last = me.move & MOVE_MASK;
        // first the children and their hashes, their table slots fetched ahead (the table is far larger
        // than the caches: each look-up would otherwise wait for memory in turn)
        int kids = 0;
        for (int c = 0; c < b_.K; ++c) {
            if (only >= 0 && c != only) continue;
            const Word *m = b_.cm(c);
            Word *grow = &sc.grows[static_cast<size_t>(kids) * w()];
            Word any = 0;
            for (int j = 0; j < w(); ++j) {
                grow[j] = m[j] & front[j];
                any |= grow[j];
            }
            if (!any) continue;
            Word *child = &sc.children[static_cast<size_t>(kids) * w()];
            for (int j = 0; j < w(); ++j) child[j] = parent[j] | grow[j];
            // the child's frontier: the parent's, less what it absorbed, plus the absorbed regions' neighbours
            Word *cfront = &sc.cfronts[static_cast<size_t>(kids) * w()];
            for (int j = 0; j < w(); ++j) cfront[j] = front[j] & ~grow[j];
            b_.template dilate<WN>(grow, cfront);
            Word opens = 0, stays = 0;  // the move reaches new regions; its colour has regions left
            for (int j = 0; j < w(); ++j) {
                cfront[j] &= ~child[j];
                opens |= cfront[j] & ~front[j];
                stays |= m[j] & ~child[j];
            }
            if (!opens && stays) continue;  // a dead end: never needed (models/bounds.md)
            if (before && comes_first(grow, cfront, c, before, last) && !b_.template is_island<WN>(child))
                continue;  // played before the last move instead (models/bounds.md, "Moves in a fixed order")
            sc.hashes[kids] = hash(child);
            __builtin_prefetch(&table_[sc.hashes[kids] & (table_.size() - 1)]);
            sc.colours[kids++] = c;
        }
        for (int k = 0; k < kids; ++k) {  // then the sets (and their g) the slots point to, fetched ahead alike
            const std::uint32_t e = table_[sc.hashes[k] & (table_.size() - 1)];
            if (e != EMPTY && (e & ~INDEX_MASK) == tag(sc.hashes[k])) {
                __builtin_prefetch(set(e & INDEX_MASK));
                __builtin_prefetch(&meta(e & INDEX_MASK));
            }
        }
        for (int k = 0; k < kids; ++k) {
            const int c = sc.colours[k];
            const Word *child = &sc.children[static_cast<size_t>(k) * w()];
            if (b_.template is_island<WN>(child)) {
                const int length = g + 1 + (b_.final_colour >= 0 && c != b_.final_colour ? 1 : 0);
                if (out.solution < 0 || length < out.solution) out.solution = length, out.solution_colour = c;
                continue;
            }
            const size_t i = slot(child, sc.hashes[k]);
            const std::uint32_t seen = at(i);
            std::uint8_t mv = static_cast<std::uint8_t>(c);
            int h = 0;
            if (seen != EMPTY && meta(seen).g <= g + 1) {  // reached as fast already: no bound needed
                if (arrival(seen, idx, c, g + 1) == KEEP) continue;
                mv |= AGAIN;  // but by a path the order prefers, or cannot tell apart: for commit()
            } else {
                const Word *cfront = &sc.cfronts[static_cast<size_t>(k) * w()];
                // the walk stops once the child is past F: it is withheld then, and its f needs no more precision
                h = std::max(sc.bound(child, cfront, F - g - 1), hp - 1);
                if (g + 1 + h >= snapshot_best_) continue;  // too long
                if (g + 1 + h > F) {
                    out.next = std::min(out.next, g + 1 + h);
                    continue;
                }
            }
            const int at_ = pos * b_.K + out.kids++;
            kid_[at_] = Kid{sc.hashes[k], i, mv, static_cast<std::uint8_t>(h)};
            std::copy(child, child + w(), &kidsets_[static_cast<size_t>(at_) * w()]);
        }
    }

    int count(const Word *s) const {
        int n = 0;
        for (int j = 0; j < w(); ++j) n += __builtin_popcountll(s[j]);
        return n;
    }

    // Whether the fixed order plays the move of colour c (absorbing `grow`; `cfront`: the frontier after it)
    // before the last move (colour `last`, from the set `before`) instead: every region it absorbs touches
    // `before`, and playing it first lets the last move absorb more (a region of colour `last` is in
    // `cfront`) or the same with a smaller colour first (models/bounds.md, "Moves in a fixed order").
    bool comes_first(const Word *grow, const Word *cfront, int c, const Word *before, int last) const {
        const Word *m = b_.cm(last);
        Word more = 0;
        for (int j = 0; j < w(); ++j) more |= cfront[j] & m[j];
        if (!more && c < last) return false;
        for (int j = 0; j < w(); ++j)
            for (Word bits = grow[j]; bits; bits &= bits - 1) {
                const Word *row = b_.nb(j * 64 + __builtin_ctzll(bits));
                Word touch = 0;
                for (int q = 0; q < w(); ++q) touch |= row[q] & before[q];
                if (!touch) return false;
            }
        return true;
    }

    // What a stored set `seen`, reached again in g moves by the move c from the set idx, changes (only where
    // the order applies and g is its g): the order's preferred path into a set comes by the smallest colour,
    // then from the largest parent; where both agree it cannot tell the two paths apart (models/bounds.md).
    Arrival arrival(std::uint32_t seen, std::uint32_t idx, int c, int g) const {
        const Meta &m = meta(seen);
        if (!order_ || m.g != g || m.parent == idx || (m.move & FREE)) return KEEP;
        const int last = m.move & MOVE_MASK;
        if (c != last) return c < last ? SWITCH : KEEP;
        const int mine = count(set(idx)), theirs = count(set(m.parent));
        return mine > theirs ? SWITCH : mine < theirs ? KEEP : TIE;
    }

    // The set k was reached by a path the order prefers (or FREE): what its expansion tries may have grown,
    // so it is queued again at its own f unless it waits there still.
    void requeue(std::uint32_t k) {
        if (meta(k).F != meta(k).g + meta(k).h) queue_at_own_f(k);
    }

    void queue_at_own_f(std::uint32_t k) {
        Meta &m = meta(k);
        m.F = static_cast<std::uint8_t>(m.g + m.h);
        push(k, m.g, m.g + m.h);
    }

    // Store what generate() found for one set, as expand() did: skipped when the set was reached by a
    // shorter path meanwhile (it is queued again at its new g and expanded then).
    void commit(const Found &out, int pos) {
        const std::uint32_t idx = out.idx;
        const int g = out.g;
        if (meta(idx).g != g) return;
        if (out.solution >= 0 && (best_len_ < 0 || out.solution < best_len_) && out.solution < ceiling_)
            record(idx, out.solution_colour, out.solution);
        for (int k = 0; k < out.kids; ++k) {
            const Kid &kid = kid_[pos * b_.K + k];
            const bool marks = kid.move & AGAIN;  // stored already: a change of parent or mark at most
            if (!marks && g + 1 + kid.h >= (best_len_ >= 0 ? std::min(best_len_, ceiling_) : ceiling_)) continue;
            if (!marks && !room()) return;
            const Word *child = &kidsets_[static_cast<size_t>(pos * b_.K + k) * w()];
            // the slot found while generating, unless the table grew: entries are never moved nor removed
            // otherwise, so the probe goes on from there
            const size_t i = table_.size() == snapshot_table_ ? slot_from(kid.slot, child, kid.hash) : slot(child, kid.hash);
            const std::uint32_t seen = at(i);
            if (seen != EMPTY && meta(seen).g <= g + 1) {
                const int colour = kid.move & MOVE_MASK;
                const Arrival a = arrival(seen, idx, colour, g + 1);
                if (a == SWITCH) {
                    meta(seen).parent = idx;
                    meta(seen).move = static_cast<std::uint8_t>(colour);
                }
                if (a == TIE) meta(seen).move |= FREE;
                if (a != KEEP) requeue(seen);
                continue;
            }
            if (marks) continue;  // (not reached: a stored set's g only decreases)
            insert(i, child, kid.hash, idx, kid.move, g + 1, kid.h);
            if (capped_) return;
        }
        if (out.before != NONE && (meta(idx).parent != out.before || (meta(idx).move & FREE))) {
            // reached by a preferred path meanwhile (a batch): expanded again, under the order that path imposes
            // (its F is still its own f here, so requeue() would take it for waiting)
            queue_at_own_f(idx);
            return;
        }
        meta(idx).F = static_cast<std::uint8_t>(out.next < MAXF ? out.next : 255);
        if (out.next < NO_CHILD) push(idx, g, out.next);
    }

    void grow_outputs(int n) {
        found_.resize(n);
        kid_.resize(static_cast<size_t>(n) * b_.K);
        kidsets_.resize(static_cast<size_t>(n) * b_.K * w());
    }
};

// The search for `board` at its width (up to 8 words, 512 regions, unrolled; wider boards: any width).
std::unique_ptr<FloodSearch> make_flood_astar(FloodBoard board, long long cap, int limit, int lanes = 1,
                                             bool order = true) {
    switch (board.W) {
        case 1: return std::make_unique<FloodAstar<1>>(std::move(board), cap, limit, lanes, order);
        case 2: return std::make_unique<FloodAstar<2>>(std::move(board), cap, limit, lanes, order);
        case 3: return std::make_unique<FloodAstar<3>>(std::move(board), cap, limit, lanes, order);
        case 4: return std::make_unique<FloodAstar<4>>(std::move(board), cap, limit, lanes, order);
        case 5: return std::make_unique<FloodAstar<5>>(std::move(board), cap, limit, lanes, order);
        case 6: return std::make_unique<FloodAstar<6>>(std::move(board), cap, limit, lanes, order);
        case 7: return std::make_unique<FloodAstar<7>>(std::move(board), cap, limit, lanes, order);
        case 8: return std::make_unique<FloodAstar<8>>(std::move(board), cap, limit, lanes, order);
        default: return std::make_unique<FloodAstar<0>>(std::move(board), cap, limit, lanes, order);
    }
}

}  // namespace
}  // namespace kamicp
