// SPDX-License-Identifier: Apache-2.0
//
// Wall and CPU clocks of kgroups_broker_bench.
#include "phase_clock.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kgroups::bench {

double monotonic_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double process_cpu_seconds(int pid) {
  if (pid == 0) {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) {
      return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
  }
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(file, stat)) return -1;
  // Field 2 (comm) may hold spaces; fields 14 and 15 (utime, stime) follow the ')'.
  std::size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  long long utime = 0;
  long long stime = 0;
  for (int index = 3; index <= 15 && fields >> field; ++index) {
    if (index == 14) utime = std::stoll(field);
    if (index == 15) stime = std::stoll(field);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double process_run_seconds(int pid) {
  std::error_code error;
  std::filesystem::directory_iterator tasks("/proc/" + std::to_string(pid) + "/task", error);
  if (error) return -1;
  long long nanoseconds = 0;
  for (const auto& task : tasks) {
    std::ifstream file(task.path() / "schedstat");
    long long run = 0;
    if (file >> run) nanoseconds += run;
  }
  return static_cast<double>(nanoseconds) / 1e9;
}

void PhaseClock::start(double now) {
  window_wall_start_ = now >= 0 ? now : monotonic_seconds();
  window_client_cpu_start_ = process_cpu_seconds(0);
  if (broker_pid_ > 0) {
    window_broker_cpu_start_ = process_cpu_seconds(broker_pid_);
    window_broker_run_start_ = process_run_seconds(broker_pid_);
  }
}

void PhaseClock::stop(double now) {
  wall_seconds_ += (now >= 0 ? now : monotonic_seconds()) - window_wall_start_;
  client_cpu_seconds_ += process_cpu_seconds(0) - window_client_cpu_start_;
  if (broker_pid_ > 0) {
    broker_cpu_seconds_ += process_cpu_seconds(broker_pid_) - window_broker_cpu_start_;
    broker_run_seconds_ += process_run_seconds(broker_pid_) - window_broker_run_start_;
  }
}

}  // namespace kgroups::bench
