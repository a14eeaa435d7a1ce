// Unit "region contraction": the board of initial regions (its adjacency, colours, start colouring) and
// the quotient graph of a colouring (adjacent regions of one colour contracted into one current region),
// the same as kamicp/board/regions.py's `quotient`. Also the packed board key the transposition table and the
// beam's duplicate check use (two initial regions per byte: at most 15 colours).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

// The initial regions: CSR adjacency, number of colours, the start colouring.
struct Board {
    int n = 0, K = 0;
    std::vector<int> astart, adj;  // neighbours of v: adj[astart[v] .. astart[v + 1])
    std::vector<int> start;

    Board(const std::vector<std::vector<int>> &adj0, std::vector<int> start_colours, int num_colours)
        : n(static_cast<int>(start_colours.size())), K(num_colours), start(std::move(start_colours)) {
        astart.push_back(0);
        for (auto &nb : adj0) {
            for (int w : nb) adj.push_back(w);
            astart.push_back(static_cast<int>(adj.size()));
        }
    }
};

// A colouring's current regions (quotient ids 0..m-1, numbered by their smallest initial region).
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

// Fills a Quot from a colouring of the board's initial regions (scratch kept between calls).
class Contraction {
  public:
    explicit Contraction(const Board &b) : b_(b), seen_(std::max(b.n, 1), -1) {}

    void quotient(const std::vector<int> &state, Quot &q) {
        const int n = b_.n;
        q.comp.assign(n, -1);
        q.rep.clear();
        q.color.clear();
        q.mstart.clear();
        q.members.clear();
        q.mstart.push_back(0);
        for (int s = 0; s < n; ++s) {
            if (q.comp[s] != -1) continue;
            int id = static_cast<int>(q.rep.size());
            q.rep.push_back(s);
            q.color.push_back(state[s]);
            q.comp[s] = id;
            size_t head = q.members.size();
            q.members.push_back(s);
            while (head < q.members.size()) {
                int v = q.members[head++];
                for (int e = b_.astart[v]; e < b_.astart[v + 1]; ++e) {
                    int w = b_.adj[e];
                    if (q.comp[w] == -1 && state[w] == state[s]) {
                        q.comp[w] = id;
                        q.members.push_back(w);
                    }
                }
            }
            q.mstart.push_back(static_cast<int>(q.members.size()));
        }
        q.m = static_cast<int>(q.rep.size());
        link(q);
    }

  private:
    const Board &b_;
    std::vector<int> seen_;

    // the adjacency between current regions, each neighbour once
    void link(Quot &q) {
        q.astart.clear();
        q.adj.clear();
        q.astart.push_back(0);
        std::fill(seen_.begin(), seen_.begin() + q.m, -1);
        for (int a = 0; a < q.m; ++a) {
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) {
                int v = q.members[i];
                for (int e = b_.astart[v]; e < b_.astart[v + 1]; ++e) {
                    int c = q.comp[b_.adj[e]];
                    if (c != a && seen_[c] != a) {
                        seen_[c] = a;
                        q.adj.push_back(c);
                    }
                }
            }
            q.astart.push_back(static_cast<int>(q.adj.size()));
        }
    }
};

inline bool one_colour(const Quot &q) {
    for (int a = 1; a < q.m; ++a)
        if (q.color[a] != q.color[0]) return false;
    return true;
}

// The colouring packed two initial regions per byte into k[0 .. (n + 1) / 2), which must be zeroed.
inline void pack_board(const std::vector<int> &state, int n, unsigned char *k) {
    for (int v = 0; v < n; ++v) k[v / 2] = static_cast<unsigned char>(k[v / 2] | (state[v] << (4 * (v & 1))));
}

inline std::string board_key(const std::vector<int> &state, int n) {
    std::string k((n + 1) / 2, '\0');
    pack_board(state, n, reinterpret_cast<unsigned char *>(&k[0]));
    return k;
}

}  // namespace
}  // namespace kamicp
