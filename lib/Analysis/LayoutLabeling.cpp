//===- LayoutLabeling.cpp - Alpha-expansion with minimum cuts -------------===//
//
// Each expansion move asks, for a label alpha, which nodes should switch to
// alpha; as a binary problem with submodular pairwise terms it is a minimum
// s-t cut (Kolmogorov and Zabih's construction), found with Dinic's
// max-flow. Nodes on the source side keep their label, nodes on the sink
// side take alpha.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/LayoutLabeling.h"

#include <algorithm>
#include <cassert>
#include <queue>

using namespace mlir::opsnn;

double LabelingProblem::evaluate(const std::vector<unsigned> &labels) const {
  double total = 0;
  for (unsigned node = 0; node < getNumNodes(); ++node)
    total += unary[node][labels[node]];
  for (const Edge &edge : edges)
    if (labels[edge.from] != labels[edge.to])
      total += edge.weight;
  return total;
}

namespace {
/// Dinic's maximum flow on a small graph with real capacities.
class FlowGraph {
public:
  explicit FlowGraph(unsigned numVertices) : adjacency(numVertices) {}

  void addEdge(unsigned from, unsigned to, double capacity) {
    if (capacity <= 0 || from == to)
      return;
    adjacency[from].push_back(arcs.size());
    arcs.push_back({to, capacity});
    adjacency[to].push_back(arcs.size());
    arcs.push_back({from, 0});
  }

  void maxFlow(unsigned source, unsigned sink) {
    while (buildLevels(source, sink)) {
      next.assign(adjacency.size(), 0);
      while (push(source, sink, std::numeric_limits<double>::infinity()) > 0) {
      }
    }
  }

  /// Vertices reachable from `source` in the residual graph (after maxFlow:
  /// the source side of a minimum cut).
  std::vector<bool> sourceSide(unsigned source) const {
    std::vector<bool> seen(adjacency.size(), false);
    std::vector<unsigned> stack = {source};
    seen[source] = true;
    while (!stack.empty()) {
      unsigned v = stack.back();
      stack.pop_back();
      for (unsigned arc : adjacency[v])
        if (arcs[arc].residual > kEpsilon && !seen[arcs[arc].to]) {
          seen[arcs[arc].to] = true;
          stack.push_back(arcs[arc].to);
        }
    }
    return seen;
  }

private:
  static constexpr double kEpsilon = 1e-30;
  struct Arc {
    unsigned to;
    double residual;
  };

  bool buildLevels(unsigned source, unsigned sink) {
    level.assign(adjacency.size(), -1);
    std::queue<unsigned> queue;
    level[source] = 0;
    queue.push(source);
    while (!queue.empty()) {
      unsigned v = queue.front();
      queue.pop();
      for (unsigned arc : adjacency[v])
        if (arcs[arc].residual > kEpsilon && level[arcs[arc].to] < 0) {
          level[arcs[arc].to] = level[v] + 1;
          queue.push(arcs[arc].to);
        }
    }
    return level[sink] >= 0;
  }

  double push(unsigned v, unsigned sink, double limit) {
    if (v == sink)
      return limit;
    for (unsigned &i = next[v]; i < adjacency[v].size(); ++i) {
      Arc &arc = arcs[adjacency[v][i]];
      if (arc.residual <= kEpsilon || level[arc.to] != level[v] + 1)
        continue;
      double pushed = push(arc.to, sink, std::min(limit, arc.residual));
      if (pushed > 0) {
        arc.residual -= pushed;
        arcs[adjacency[v][i] ^ 1].residual += pushed;
        return pushed;
      }
    }
    return 0;
  }

  std::vector<std::vector<unsigned>> adjacency;
  std::vector<Arc> arcs;
  std::vector<int> level;
  std::vector<unsigned> next;
};

/// The best expansion of `labels` towards `alpha`.
std::vector<unsigned> expand(const LabelingProblem &problem,
                             const std::vector<unsigned> &labels,
                             unsigned alpha) {
  unsigned n = problem.getNumNodes();
  unsigned source = n, sink = n + 1;
  FlowGraph graph(n + 2);
  // Binary variable x = 0 (source side): keep the label; x = 1: take alpha.
  // A cost paid when x = 1 goes on source -> node, when x = 0 on node -> sink.
  std::vector<double> payIfSwitch(n, 0), payIfKeep(n, 0);
  for (unsigned node = 0; node < n; ++node) {
    payIfKeep[node] += problem.unary[node][labels[node]];
    payIfSwitch[node] += problem.unary[node][alpha];
  }
  for (const LabelingProblem::Edge &edge : problem.edges) {
    unsigned i = edge.from, j = edge.to;
    double w = edge.weight;
    double a = labels[i] != labels[j] ? w : 0; // keep, keep
    double b = labels[i] != alpha ? w : 0;     // keep, switch
    double c = alpha != labels[j] ? w : 0;     // switch, keep
    // switch, switch costs 0. E = a + (c - a) x_i - c x_j
    //                          + (b + c - a) (1 - x_i) x_j.
    double onI = c - a;
    (onI > 0 ? payIfSwitch[i] : payIfKeep[i]) += std::abs(onI);
    payIfKeep[j] += c; // -c x_j == c (1 - x_j) - c
    graph.addEdge(i, j, b + c - a);
  }
  for (unsigned node = 0; node < n; ++node) {
    double shift = std::min(payIfSwitch[node], payIfKeep[node]);
    graph.addEdge(source, node, payIfSwitch[node] - shift);
    graph.addEdge(node, sink, payIfKeep[node] - shift);
  }
  graph.maxFlow(source, sink);
  std::vector<bool> keep = graph.sourceSide(source);
  std::vector<unsigned> result = labels;
  for (unsigned node = 0; node < n; ++node)
    if (!keep[node])
      result[node] = alpha;
  return result;
}
} // namespace

std::vector<unsigned>
mlir::opsnn::solveLabeling(const LabelingProblem &problem,
                           std::vector<unsigned> initial) {
  assert(initial.size() == problem.getNumNodes() && "one label per node");
  std::vector<unsigned> labels = std::move(initial);
  double cost = problem.evaluate(labels);
  // Rounds of moves until none improves; each improving move lowers the
  // cost, so this terminates.
  for (bool improved = true; improved;) {
    improved = false;
    for (unsigned alpha = 0; alpha < problem.numLabels; ++alpha) {
      std::vector<unsigned> candidate = expand(problem, labels, alpha);
      double candidateCost = problem.evaluate(candidate);
      if (candidateCost < cost * (1 - 1e-12) - 1e-300) {
        labels = std::move(candidate);
        cost = candidateCost;
        improved = true;
      }
    }
  }
  return labels;
}
