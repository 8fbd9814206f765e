// SPDX-License-Identifier: Apache-2.0
//
// kgroups_mock_cluster: starts librdkafka's in-process mock cluster (one broker)
// as the baseline broker for bench/broker_bench.sh. It creates the topics given
// by --topic NAME:PARTITIONS, prints one line "mock cluster listening on
// HOST:PORT" on stdout, and runs until SIGINT or SIGTERM. The mock broker runs
// on librdkafka's threads inside this process, so /proc/<pid>/stat measures it.
// The signal mask is set before librdkafka or the topic-creating threads start.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", error, sizeof error);
  rd_kafka_t* handle = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (handle == nullptr) {
    std::fprintf(stderr, "kgroups_mock_cluster: rd_kafka_new failed: %s\n", error);
    return 1;
  }
  rd_kafka_mock_cluster_t* cluster = rd_kafka_mock_cluster_new(handle, 1);
  if (cluster == nullptr) {
    std::fprintf(stderr, "kgroups_mock_cluster: rd_kafka_mock_cluster_new failed\n");
    return 1;
  }
  std::vector<std::pair<std::string, int>> topics;  // name, partitions
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg != "--topic" || i + 1 >= argc) {
      std::fprintf(stderr, "usage: %s [--topic NAME:PARTITIONS]...\n", argv[0]);
      return 2;
    }
    std::string spec = argv[++i];
    std::size_t colon = spec.rfind(':');
    int partitions = colon == std::string::npos ? 0 : std::atoi(spec.c_str() + colon + 1);
    if (partitions <= 0) {
      std::fprintf(stderr, "kgroups_mock_cluster: --topic wants NAME:PARTITIONS, got '%s'\n",
                   spec.c_str());
      return 2;
    }
    topics.emplace_back(spec.substr(0, colon), partitions);
  }
  // One thread per topic: created one after another, the mock often stalls about
  // 1 s per topic; created at once, they all complete in one such stall at most.
  std::vector<rd_kafka_resp_err_t> errors(topics.size(), RD_KAFKA_RESP_ERR_NO_ERROR);
  std::vector<std::thread> creators;
  for (std::size_t i = 0; i < topics.size(); ++i) {
    creators.emplace_back([&, i] {
      errors[i] = rd_kafka_mock_topic_create(cluster, topics[i].first.c_str(), topics[i].second, 1);
    });
  }
  for (auto& creator : creators) creator.join();
  for (std::size_t i = 0; i < topics.size(); ++i) {
    if (errors[i] != RD_KAFKA_RESP_ERR_NO_ERROR) {
      std::fprintf(stderr, "kgroups_mock_cluster: cannot create topic '%s': %s\n",
                   topics[i].first.c_str(), rd_kafka_err2str(errors[i]));
      return 1;
    }
  }
  std::printf("mock cluster listening on %s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(handle);
  return 0;
}
