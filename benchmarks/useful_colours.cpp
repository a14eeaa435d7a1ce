// Exact free optima of every colouring of a small graph, for benchmarks/useful_colours.py (which compiles and
// drives it).
//
// stdin, one graph a line: n K m u_1 v_1 .. u_m v_m (nodes 0..n-1, colours 0..K-1, K^n <= 2^24). stdout, a
// line per graph, over all K^n colourings (proper or not; a colouring is a board whose palette is 0..K-1):
//   colourings  K^n
//   differs     colourings whose optimum changes when every move must paint a colour that a neighbour of the
//               tapped region has ("useful colours only"; no such solution at all counts as a change)
//   one_node    the most the optimum changes when one node alone is recoloured
//   one_move    the most one move raises the optimum (opt(after) - opt(before), over every move)
//   largest     the largest optimum
// Every optimum at once, by rounds: a colouring needs r moves when it is not one colour, needs no fewer, and
// some move leads to one that needs r - 1. No pruning: slow but plainly right.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using Code = long;  // a colouring: node i is digit i in base K

static int n, K;
static std::vector<std::vector<int>> adj;
static std::vector<Code> place;  // K^i

// Calls f(child) for every move of `code`: each region in each other colour; with `useful`, only the colours
// a neighbour of the region has.
template <class F>
static void moves(Code code, bool useful, F f) {
    int colour[32];
    for (int i = 0; i < n; ++i) colour[i] = static_cast<int>(code / place[i] % K);
    std::uint32_t done = 0;
    for (int i = 0; i < n; ++i) {
        if (done >> i & 1) continue;
        std::uint32_t region = 1u << i, near = 0;
        int stack[32], top = 0;
        stack[top++] = i;
        while (top) {
            int u = stack[--top];
            for (int v : adj[u]) {
                if (region >> v & 1) continue;
                if (colour[v] == colour[i]) {
                    region |= 1u << v;
                    stack[top++] = v;
                } else {
                    near |= 1u << colour[v];
                }
            }
        }
        done |= region;
        for (int c = 0; c < K; ++c) {
            if (c == colour[i] || (useful && !(near >> c & 1))) continue;
            Code child = code;
            for (int u = 0; u < n; ++u)
                if (region >> u & 1) child += (c - colour[u]) * place[u];
            f(child);
        }
    }
}

// The optimum of every colouring (-1: no solution with these moves).
static std::vector<signed char> optima(bool useful) {
    std::vector<signed char> opt(place[n], -1);
    for (int c = 0; c < K; ++c) opt[c * ((place[n] - 1) / (K - 1))] = 0;  // one colour: c in every digit
    for (int r = 1;; ++r) {
        bool changed = false;
        for (Code code = 0; code < place[n]; ++code) {
            if (opt[code] >= 0) continue;
            bool found = false;
            moves(code, useful, [&](Code child) { found = found || opt[child] == r - 1; });
            if (found) {
                opt[code] = static_cast<signed char>(r);  // (never r - 1, so not used again this round)
                changed = true;
            }
        }
        if (!changed) return opt;
    }
}

int main() {
    int m;
    while (std::scanf("%d %d %d", &n, &K, &m) == 3) {
        adj.assign(n, {});
        for (int e = 0, u, v; e < m; ++e) {
            if (std::scanf("%d %d", &u, &v) != 2) return 2;
            adj[u].push_back(v);
            adj[v].push_back(u);
        }
        place.assign(n + 1, 1);
        for (int i = 1; i <= n; ++i) place[i] = place[i - 1] * K;
        std::vector<signed char> opt = optima(false), useful = optima(true);
        long differs = 0;
        int one_node = 0, one_move = -1000, largest = 0;
        for (Code code = 0; code < place[n]; ++code) {
            differs += useful[code] != opt[code];
            largest = std::max(largest, static_cast<int>(opt[code]));
            for (int i = 0; i < n; ++i)
                for (Code c = 0, own = code / place[i] % K; c < K; ++c)
                    one_node = std::max(one_node, std::abs(opt[code + (c - own) * place[i]] - opt[code]));
            moves(code, false, [&](Code child) { one_move = std::max(one_move, opt[child] - opt[code]); });
        }
        std::printf("%ld %ld %d %d %d\n", place[n], differs, one_node, one_move, largest);
    }
    return 0;
}
