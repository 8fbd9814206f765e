// SPDX-License-Identifier: Apache-2.0
//
// str -> TopicOptions for kgroups.Topic(...) (see topic_options_arg.h).
#include "topic_options_arg.h"

#include "text_args.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

std::string option_text(py::handle object, const char* what) {
  require_text(object, what);
  return std::string(utf8_view(object));
}

}  // namespace

kgroups::TopicOptions topic_options_arg(py::handle partitioner, py::handle assignor,
                                        py::handle auto_offset_reset) {
  require_text(partitioner, "partitioner");
  require_text(assignor, "assignor");
  require_text(auto_offset_reset, "auto_offset_reset");
  kgroups::TopicOptions options;
  options.partitioner = option_text(partitioner, "partitioner");
  options.assignor = option_text(assignor, "assignor");
  options.auto_offset_reset = option_text(auto_offset_reset, "auto_offset_reset");
  return options;
}

std::string partitioner_arg(py::handle partitioner) {
  return option_text(partitioner, "partitioner");
}

}  // namespace kgroups::python
