// SPDX-License-Identifier: Apache-2.0
//
// C++ -> Python error mapping of the _kgroups module (see errors.h).
#include "errors.h"

#include <exception>
#include <stdexcept>
#include <utility>

#include "kgroups/errors.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

constexpr const char* kNotAssignedErrorDoc =
    "Raised by Topic.commit(group, consumer_id, offsets) when a partition named in\n"
    "offsets is not assigned to that consumer right now (it lost the partition in a\n"
    "rebalance, or the partition does not exist). Nothing was committed.";

// The class object, created once and alive for the rest of the process (the
// module holds a reference too).
PyObject* not_assigned_error_type = nullptr;

// Sets the Python error for the engine's three exception types; rethrows any other.
void translate_engine_error(std::exception_ptr error) {
  try {
    if (error) {
      std::rethrow_exception(std::move(error));
    }
  } catch (const kgroups::NotAssignedError& e) {
    PyErr_SetString(not_assigned_error_type, e.what());
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::out_of_range& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  }
}

}  // namespace

void register_errors(py::module_& module) {
  if (not_assigned_error_type == nullptr) {
    not_assigned_error_type = PyErr_NewExceptionWithDoc(
        "kgroups.NotAssignedError", kNotAssignedErrorDoc, PyExc_Exception, nullptr);
    if (not_assigned_error_type == nullptr) {
      throw py::error_already_set();
    }
  }
  module.add_object("NotAssignedError", py::handle(not_assigned_error_type));
  py::register_local_exception_translator(&translate_engine_error);
}

void raise_current_exception() noexcept {
  try {
    try {
      throw;
    } catch (py::error_already_set& e) {
      // Already a Python error (UnicodeEncodeError, a failing __index__, ...).
      e.restore();
    } catch (const py::builtin_exception& e) {
      e.set_error();
    } catch (const kgroups::NotAssignedError&) {
      translate_engine_error(std::current_exception());
    } catch (const std::invalid_argument&) {
      translate_engine_error(std::current_exception());
    } catch (const std::out_of_range&) {
      translate_engine_error(std::current_exception());
    } catch (const std::bad_alloc&) {
      PyErr_NoMemory();
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "kgroups: unknown C++ exception");
  }
}

}  // namespace kgroups::python
