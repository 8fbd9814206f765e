// SPDX-License-Identifier: Apache-2.0
//
// CallScope: opens every public call of a group coordinator. On entry the coordinator's
// begin_call() applies the expiries due at the clock's current time; on exit its end_call()
// settles the groups the call touched (GroupTable::settle) and runs what the call queued.
// So each call sees the state as of now and leaves it consistent, whichever way it returns.
// A coordinator befriends CallScope<itself> and keeps both functions private.
#pragma once

namespace kgroups::broker {

template <class Coordinator>
class CallScope {
 public:
  explicit CallScope(Coordinator& coordinator) : coordinator_(coordinator) {
    coordinator_.begin_call();
  }
  ~CallScope() { coordinator_.end_call(); }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  CallScope(CallScope&&) = delete;
  CallScope& operator=(CallScope&&) = delete;

 private:
  Coordinator& coordinator_;
};

}  // namespace kgroups::broker
