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

}  // namespace sealint
