// SPDX-License-Identifier: Apache-2.0
//
// The C++ -> JavaScript error mapping of errors.h.
#include "errors.h"

#include <exception>
#include <stdexcept>
#include <vector>

#include "addon_state.h"
#include "js_array.h"
#include "kgroups/errors.h"
#include "topic_options_arg.h"

namespace kgroups::node {
namespace {

Napi::Error not_assigned_error(Napi::Env env, const kgroups::NotAssignedError& error) {
  const Napi::FunctionReference& constructor = addon_state(env).not_assigned_error;
  const Napi::String message = Napi::String::New(env, error.what());
  if (constructor.IsEmpty()) {
    // The addon was loaded without index.js; still an Error with the message.
    return Napi::Error::New(env, error.what());
  }
  Napi::Object instance =
      constructor.New({message, Napi::Number::New(env, static_cast<double>(error.partition()))});
  return {env, instance};
}

Napi::Error no_offset_error(Napi::Env env, const kgroups::NoOffsetError& error) {
  const Napi::FunctionReference& constructor = addon_state(env).no_offset_error;
  if (constructor.IsEmpty()) return Napi::Error::New(env, js_option_names(error.what()));
  std::vector<napi_value> partitions;
  partitions.reserve(error.partitions().size());
  for (const int partition : error.partitions()) {
    partitions.push_back(Napi::Number::New(env, partition));
  }
  // The message names the option, as JS spells it.
  const Napi::String message = Napi::String::New(env, js_option_names(error.what()));
  Napi::Object instance = constructor.New({message, new_js_array(env, partitions)});
  return {env, instance};
}

Napi::Error not_acquired_error(Napi::Env env, const std::string& message, double partition,
                               double offset) {
  const Napi::FunctionReference& constructor = addon_state(env).not_acquired_error;
  if (constructor.IsEmpty()) return Napi::Error::New(env, message);
  Napi::Object instance =
      constructor.New({Napi::String::New(env, message), Napi::Number::New(env, partition),
                       Napi::Number::New(env, offset)});
  return {env, instance};
}

}  // namespace

void rethrow_as_js_error(Napi::Env env) {
  try {
    throw;
  } catch (const kgroups::NotAssignedError& error) {
    throw not_assigned_error(env, error);
  } catch (const kgroups::NoOffsetError& error) {
    throw no_offset_error(env, error);
  } catch (const kgroups::NotAcquiredError& error) {
    throw not_acquired_error(env, error.what(), static_cast<double>(error.partition()),
                             static_cast<double>(error.offset()));
  } catch (const std::invalid_argument& error) {
    throw Napi::RangeError::New(env, error.what());
  } catch (const std::out_of_range& error) {
    throw Napi::RangeError::New(env, error.what());
  } catch (const std::exception& error) {
    throw Napi::Error::New(env, std::string("kgroups: internal error: ") + error.what());
  }
}

void throw_not_acquired_error(Napi::Env env, const std::string& message, double partition,
                              double offset) {
  throw not_acquired_error(env, message, partition, offset);
}

void throw_type_error(Napi::Env env, const std::string& message) {
  throw Napi::TypeError::New(env, message);
}

void throw_range_error(Napi::Env env, const std::string& message) {
  throw Napi::RangeError::New(env, message);
}

}  // namespace kgroups::node
