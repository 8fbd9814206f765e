// SPDX-License-Identifier: Apache-2.0
//
// std::vector<Record> -> list[dict] (see records.h). This is the hot path of poll,
// so it uses the C API directly: interned field names, a pre-sized list, and one
// str/bytes object per distinct key of the batch (see KeyObjectCache).
#include "records.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "key_value.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

struct FieldNames {
  PyObject* partition;
  PyObject* offset;
  PyObject* key;
  PyObject* value;
};

// Interned once; the strings live for the rest of the process.
const FieldNames& field_names() {
  static const FieldNames kNames = [] {
    FieldNames created{PyUnicode_InternFromString("partition"),
                       PyUnicode_InternFromString("offset"), PyUnicode_InternFromString("key"),
                       PyUnicode_InternFromString("value")};
    if (created.partition == nullptr || created.offset == nullptr || created.key == nullptr ||
        created.value == nullptr) {
      throw py::error_already_set();
    }
    return created;
  }();
  return kNames;
}

// Sets dict[name] = value and drops the reference to value (a new reference, or
// nullptr when creating it failed).
void set_field(PyObject* dict, PyObject* name, PyObject* value) {
  if (value == nullptr) {
    throw py::error_already_set();
  }
  const int status = PyDict_SetItem(dict, name, value);
  Py_DECREF(value);
  if (status != 0) {
    throw py::error_already_set();
  }
}

// Keys repeat within a batch (a key names an entity, and all records of a key are
// on one partition), so each poll converts a key's bytes to a str/bytes object
// once and shares it: a small direct-mapped cache that lives for one call. str and
// bytes are immutable, so sharing cannot be observed.
class KeyObjectCache {
 public:
  // A new reference to the key object for `bytes` tagged `encoding`; nullptr with
  // a Python error set if creating it failed. `bytes` must outlive the cache.
  PyObject* get(std::string_view bytes, kgroups::Encoding encoding) {
    Slot& slot = slots_[slot_index(bytes)];
    if (!slot.object || slot.encoding != encoding || slot.bytes != bytes) {
      PyObject* created = key_value_to_python(bytes, encoding);
      if (created == nullptr) {
        return nullptr;
      }
      slot.object = py::reinterpret_steal<py::object>(created);
      slot.bytes = bytes;
      slot.encoding = encoding;
    }
    return slot.object.inc_ref().ptr();
  }

 private:
  static constexpr int kSlotBits = 6;

  struct Slot {
    std::string_view bytes;  // views the Topic's log
    kgroups::Encoding encoding = kgroups::Encoding::kBytes;
    py::object object;
  };

  // Mixes the length with the last (up to) 8 bytes, where ids usually differ.
  static std::size_t slot_index(std::string_view bytes) {
    std::uint64_t tail = 0;
    const std::size_t count = bytes.size() < sizeof(tail) ? bytes.size() : sizeof(tail);
    if (count > 0) {
      std::memcpy(&tail, bytes.data() + bytes.size() - count, count);
    }
    const std::uint64_t mixed = (tail ^ bytes.size()) * 0x9E3779B97F4A7C15ULL;
    return static_cast<std::size_t>(mixed >> (64 - kSlotBits));
  }

  std::array<Slot, std::size_t{1} << kSlotBits> slots_;
};

}  // namespace

py::list records_to_python(const std::vector<kgroups::Record>& records) {
  const FieldNames& names = field_names();
  py::list list(records.size());
  KeyObjectCache keys;

  Py_ssize_t index = 0;
  for (const kgroups::Record& record : records) {
    auto dict = py::reinterpret_steal<py::object>(PyDict_New());
    if (!dict) {
      throw py::error_already_set();
    }
    set_field(dict.ptr(), names.partition, PyLong_FromLong(record.partition));
    set_field(dict.ptr(), names.offset, PyLong_FromLongLong(record.offset));
    set_field(dict.ptr(), names.key, keys.get(record.key, record.key_encoding));
    set_field(dict.ptr(), names.value, key_value_to_python(record.value, record.value_encoding));
    PyList_SET_ITEM(list.ptr(), index++, dict.release().ptr());
  }
  return list;
}

py::list share_records_to_python(const std::vector<kgroups::ShareRecord>& records) {
  static PyObject* const kDeliveryCount = PyUnicode_InternFromString("delivery_count");
  if (kDeliveryCount == nullptr) {
    throw py::error_already_set();
  }
  std::vector<kgroups::Record> plain;
  plain.reserve(records.size());
  for (const kgroups::ShareRecord& record : records) {
    plain.push_back(record.record);
  }
  py::list list = records_to_python(plain);
  for (std::size_t i = 0; i < records.size(); ++i) {
    set_field(PyList_GET_ITEM(list.ptr(), static_cast<Py_ssize_t>(i)), kDeliveryCount,
              PyLong_FromLong(records[i].delivery_count));
  }
  return list;
}

}  // namespace kgroups::python
