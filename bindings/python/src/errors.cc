// SPDX-License-Identifier: Apache-2.0
//
// C++ -> Python error mapping of the _kgroups module (see errors.h).
#include "errors.h"

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kgroups/errors.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

constexpr const char* kNotAssignedErrorDoc =
    "Raised by Topic.commit(group, consumer_id, offsets) when a partition named in\n"
    "offsets is not assigned to that consumer right now (it lost the partition in a\n"
    "rebalance, or the partition does not exist). Nothing was committed.";

constexpr const char* kNoOffsetErrorDoc =
    "Raised by Topic.poll under auto_offset_reset=\"none\" when some of the\n"
    "consumer's partitions have no position and the group has no committed offset\n"
    "for them. .partitions is the list of those partitions (ascending ints). Nothing\n"
    "changed: no record was returned and no position moved. Commit an offset for\n"
    "them (commit(group, consumer_id, {partition: offset})) and poll again.";

constexpr const char* kNotAcquiredErrorDoc =
    "Raised by Topic.acknowledge when a record named is not held by the member\n"
    "right now: never acquired, acquired by another member, already acknowledged,\n"
    "or its lock ran out (also for a partition outside the topic or a non-member).\n"
    ".partition and .offset (ints) name the first such record. Nothing was\n"
    "acknowledged.";

// The class objects, created once and alive for the rest of the process (the
// module holds a reference too).
PyObject* not_assigned_error_type = nullptr;
PyObject* no_offset_error_type = nullptr;
PyObject* not_acquired_error_type = nullptr;

PyObject* new_exception_type(const char* name, const char* doc) {
  PyObject* type = PyErr_NewExceptionWithDoc(name, doc, PyExc_Exception, nullptr);
  if (type == nullptr) {
    throw py::error_already_set();
  }
  return type;
}

// Raises kgroups.NoOffsetError(message) with .partitions set. If building the
// instance fails, that failure (MemoryError, ...) is the Python error instead.
void raise_no_offset_error(const kgroups::NoOffsetError& error) {
  auto instance = py::reinterpret_steal<py::object>(
      PyObject_CallFunction(no_offset_error_type, "s", error.what()));
  if (!instance) {
    return;
  }
  const std::vector<int>& partitions = error.partitions();
  auto list =
      py::reinterpret_steal<py::object>(PyList_New(static_cast<Py_ssize_t>(partitions.size())));
  if (!list) {
    return;
  }
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    PyObject* partition = PyLong_FromLong(partitions[i]);
    if (partition == nullptr) {
      return;
    }
    PyList_SET_ITEM(list.ptr(), static_cast<Py_ssize_t>(i), partition);
  }
  if (PyObject_SetAttrString(instance.ptr(), "partitions", list.ptr()) != 0) {
    return;
  }
  PyErr_SetObject(no_offset_error_type, instance.ptr());
}

// Sets kgroups.NotAcquiredError(message) with .partition and .offset as the Python
// error. If building the instance fails, that failure is the Python error instead.
void set_not_acquired_error(const char* message, py::handle partition, py::handle offset) {
  auto instance = py::reinterpret_steal<py::object>(
      PyObject_CallFunction(not_acquired_error_type, "s", message));
  if (!instance) {
    return;
  }
  if (PyObject_SetAttrString(instance.ptr(), "partition", partition.ptr()) != 0 ||
      PyObject_SetAttrString(instance.ptr(), "offset", offset.ptr()) != 0) {
    return;
  }
  PyErr_SetObject(not_acquired_error_type, instance.ptr());
}

void raise_engine_not_acquired_error(const kgroups::NotAcquiredError& error) {
  auto partition = py::reinterpret_steal<py::object>(PyLong_FromLong(error.partition()));
  auto offset = py::reinterpret_steal<py::object>(PyLong_FromLongLong(error.offset()));
  if (!partition || !offset) {
    return;
  }
  set_not_acquired_error(error.what(), partition, offset);
}

// Sets the Python error for the engine's five exception types; rethrows any other.
void translate_engine_error(std::exception_ptr error) {
  try {
    if (error) {
      std::rethrow_exception(std::move(error));
    }
  } catch (const kgroups::NotAssignedError& e) {
    PyErr_SetString(not_assigned_error_type, e.what());
  } catch (const kgroups::NoOffsetError& e) {
    raise_no_offset_error(e);
  } catch (const kgroups::NotAcquiredError& e) {
    raise_engine_not_acquired_error(e);
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::out_of_range& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  }
}

}  // namespace

void register_errors(py::module_& module) {
  if (not_assigned_error_type == nullptr) {
    not_assigned_error_type = new_exception_type("kgroups.NotAssignedError", kNotAssignedErrorDoc);
  }
  if (no_offset_error_type == nullptr) {
    no_offset_error_type = new_exception_type("kgroups.NoOffsetError", kNoOffsetErrorDoc);
  }
  if (not_acquired_error_type == nullptr) {
    not_acquired_error_type = new_exception_type("kgroups.NotAcquiredError", kNotAcquiredErrorDoc);
  }
  module.add_object("NotAssignedError", py::handle(not_assigned_error_type));
  module.add_object("NoOffsetError", py::handle(no_offset_error_type));
  module.add_object("NotAcquiredError", py::handle(not_acquired_error_type));
  py::register_local_exception_translator(&translate_engine_error);
}

void raise_not_acquired_error(const std::string& message, py::handle partition, py::handle offset) {
  set_not_acquired_error(message.c_str(), partition, offset);
  throw py::error_already_set();
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
    } catch (const kgroups::NoOffsetError&) {
      translate_engine_error(std::current_exception());
    } catch (const kgroups::NotAcquiredError&) {
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
