#include "analyzer/core/confirmation.h"

namespace sealint {

std::string_view probe_measure_name(ProbeMeasure measure) {
  switch (measure) {
    case ProbeMeasure::Growth:
      return "growth";
    case ProbeMeasure::Graph:
      return "graph";
  }
  return "growth";
}

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::Confirmed:
      return "confirmed";
    case Verdict::NotConfirmed:
      return "not confirmed";
    case Verdict::TooFewIterations:
      return "too few iterations";
    case Verdict::NotReached:
      return "not reached";
    case Verdict::NotMeasured:
      return "not measured";
  }
  return "not measured";
}

std::string held_link_text(const HeldLink& link) {
  std::string text = "`" + link.name + "` (" + link.type;
  if (link.length)
    text += ", " + std::to_string(*link.length) + (*link.length == 1 ? " item" : " items");
  if (!link.grad_fn.empty()) text += ", grad_fn " + link.grad_fn;
  if (!link.where.empty()) text += ", " + link.where;
  return text + ")";
}

}  // namespace sealint
