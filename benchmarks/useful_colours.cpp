// Exact free optima of small coloured graphs, for benchmarks/useful_colours.py (which compiles and drives it).
//
// stdin, one board a line: n K c_0 .. c_{n-1} m u_1 v_1 .. u_m v_m (nodes 0..n-1, n <= 16, colours 0..K-1,
// K <= 8; a connected graph). stdout, a line per board: "opt useful raise" where
//   opt    = the fewest moves that make the board one colour (any colour of 0..K-1 may be painted),
//   useful = the same when every move must paint a colour that some neighbour of the tapped region has,
//   raise  = max over every move y of opt(y(board)) - opt (how much one move can make the board worse).
// A line "sv n K m u_1 v_1 .. u_m v_m" instead: every colouring of the graph with colours 0..K-1 (proper or not),
// answered "colourings change": the most the optimum changes when one node alone is recoloured.
// Breadth-first over colourings (3 bits a node), no pruning: slow but plainly right.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <vector>

using State = std::uint64_t;

static int n, K;
static std::vector<std::vector<int>> adj;

static int colour(State s, int i) { return static_cast<int>((s >> (3 * i)) & 7); }
static State paint(State s, int i, int c) { return (s & ~(State{7} << (3 * i))) | (State(c) << (3 * i)); }

static bool one_colour(State s) {
    for (int i = 1; i < n; ++i)
        if (colour(s, i) != colour(s, 0)) return false;
    return true;
}

// Calls f(child) for every move: each region (maximal one-coloured connected set) in each other colour;
// with `useful`, only the colours a neighbour of the region has.
template <class F>
static void moves(State s, bool useful, F f) {
    std::uint32_t done = 0;
    for (int i = 0; i < n; ++i) {
        if (done >> i & 1) continue;
        std::uint32_t region = 1u << i, near = 0;
        std::vector<int> stack{i};
        while (!stack.empty()) {
            int u = stack.back();
            stack.pop_back();
            for (int v : adj[u]) {
                if (region >> v & 1) continue;
                if (colour(s, v) == colour(s, i)) {
                    region |= 1u << v;
                    stack.push_back(v);
                } else {
                    near |= 1u << colour(s, v);
                }
            }
        }
        done |= region;
        for (int c = 0; c < K; ++c) {
            if (c == colour(s, i) || (useful && !(near >> c & 1))) continue;
            State t = s;
            for (int u = 0; u < n; ++u)
                if (region >> u & 1) t = paint(t, u, c);
            f(t);
        }
    }
}

// Fewest moves to one colour, or limit + 1 when more than `limit` are needed.
static int optimum(State start, bool useful, int limit) {
    if (one_colour(start)) return 0;
    std::unordered_set<State> seen{start};
    std::vector<State> frontier{start};
    for (int depth = 1; depth <= limit && !frontier.empty(); ++depth) {
        std::vector<State> next;
        bool solved = false;
        for (State s : frontier) {
            moves(s, useful, [&](State t) {
                if (!solved && seen.insert(t).second) {
                    solved = one_colour(t);
                    next.push_back(t);
                }
            });
            if (solved) return depth;
        }
        frontier.swap(next);
    }
    return limit + 1;
}

static void read_edges(int m) {
    adj.assign(n, {});
    for (int e = 0, u, v; e < m; ++e) {
        if (std::scanf("%d %d", &u, &v) != 2) std::exit(2);
        adj[u].push_back(v);
        adj[v].push_back(u);
    }
}

// Every colouring by its number in base K (node i is digit i): the largest |opt(a) - opt(b)| over colourings
// a, b that differ at one node.
static void single_node_changes() {
    long total = 1;
    for (int i = 0; i < n; ++i) total *= K;
    std::vector<int> opt(total);
    for (long code = 0; code < total; ++code) {
        State s = 0;
        for (long i = 0, x = code; i < n; ++i, x /= K) s = paint(s, static_cast<int>(i), static_cast<int>(x % K));
        opt[code] = optimum(s, false, 4 * n);
    }
    int change = 0;
    for (long i = 0, place = 1; i < n; ++i, place *= K)
        for (long code = 0; code < total; ++code)
            for (long c = 0, own = code / place % K; c < K; ++c)
                change = std::max(change, std::abs(opt[code + (c - own) * place] - opt[code]));
    std::printf("%ld %d\n", total, change);
}

int main() {
    int m;
    char word[8];
    while (std::scanf("%7s", word) == 1) {
        if (std::string(word) == "sv") {
            if (std::scanf("%d %d %d", &n, &K, &m) != 3) return 2;
            read_edges(m);
            single_node_changes();
            continue;
        }
        n = std::atoi(word);
        if (std::scanf("%d", &K) != 1) return 2;
        State s = 0;
        for (int i = 0, c; i < n; ++i) {
            if (std::scanf("%d", &c) != 1) return 2;
            s = paint(s, i, c);
        }
        if (std::scanf("%d", &m) != 1) return 2;
        read_edges(m);
        int opt = optimum(s, false, 4 * n);
        int useful = optimum(s, true, opt + 1);
        int raise = -opt;
        moves(s, false, [&](State t) { raise = std::max(raise, optimum(t, false, opt + 2) - opt); });
        std::printf("%d %d %d\n", opt, useful, raise);
    }
    return 0;
}
