//===- LayoutLabeling.h - Whole-function layout choice ----------*- C++ -*-===//
//
// The optimisation problem behind --opsnn-assign-layouts="strategy=global":
// give every layout-flexible op (a node) one layout (a label) so that the sum
// of the ops' own costs in their layouts plus the cost of every conversion
// between an activation's producer and consumer in different layouts is
// minimal. That is a labeling problem with a Potts pairwise term (a fixed
// cost whenever two neighbours disagree), solved with alpha-expansion moves
// (Boykov, Veksler, Zabih 2001): each move is a minimum s-t cut. With two
// labels (channels-first, channels-last) the first move is the exact
// optimum; with more, the result is within twice the optimum. Independent of
// MLIR so that it can be unit-tested against brute force.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_ANALYSIS_LAYOUTLABELING_H
#define OPSNN_ANALYSIS_LAYOUTLABELING_H

#include <limits>
#include <vector>

namespace mlir::opsnn {

struct LabelingProblem {
  /// A cost standing for "not allowed": large but finite, so that flows stay
  /// well defined.
  static constexpr double kForbidden = 1e18;

  unsigned numLabels = 0;
  /// unary[node][label]: the node's own cost under the label.
  std::vector<std::vector<double>> unary;
  struct Edge {
    unsigned from, to;
    /// Charged once when the two nodes' labels differ.
    double weight;
  };
  std::vector<Edge> edges;

  unsigned getNumNodes() const { return unary.size(); }
  /// Total cost of `labels`.
  double evaluate(const std::vector<unsigned> &labels) const;
};

/// Minimum-cost labeling by alpha-expansion from `initial` (which must be
/// allowed: no kForbidden unary cost). Never returns a labeling costlier than
/// `initial`.
std::vector<unsigned> solveLabeling(const LabelingProblem &problem,
                                    std::vector<unsigned> initial);

} // namespace mlir::opsnn

#endif // OPSNN_ANALYSIS_LAYOUTLABELING_H
