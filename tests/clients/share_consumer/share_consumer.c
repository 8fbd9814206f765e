// SPDX-License-Identifier: Apache-2.0
//
// share_consumer: a librdkafka 2.15 share consumer (KIP-932) driven line by line from
// stdin, for the client tests (tests/clients/share_consumer_process.py starts it).
//
//   share_consumer BOOTSTRAP GROUP TOPIC [KEY=VALUE ...]
//
// KEY=VALUE pairs are librdkafka properties (e.g. share.acknowledgement.mode=explicit,
// debug=cgrp,fetch). After subscribing it prints "ready". Then each command gets a reply
// that ends with the line "end"; stdout is flushed after every reply:
//
//   poll N TIMEOUT_MS      polls until N records arrived or TIMEOUT_MS passed (in explicit
//                          mode it stops after the first non-empty batch, since librdkafka
//                          refuses the next poll until each of its records is acknowledged;
//                          in implicit mode each further poll accepts the records before it);
//                          one line per record: PARTITION OFFSET DELIVERY_COUNT KEY VALUE
//   ack all|OFFSET|PARTITION:OFFSET accept|release|reject
//                          acknowledges records of the last poll; replies "acked COUNT"
//   commit                 rd_kafka_share_commit_sync: one line per partition,
//                          "committed PARTITION ERROR_NAME"
//   commit_async           rd_kafka_share_commit_async: no lines
//   close                  closes the consumer (leaves the group) and exits: 0, or 1 when
//                          closing failed
//
// KEY and VALUE are "-" when null, else their bytes with '%', '-' as the whole value,
// whitespace and bytes outside printable ASCII written as %XX. A failure anywhere is a line
// "error ERROR_NAME TEXT" before "end"; librdkafka's error callbacks since the last reply
// are lines "event ERROR_NAME TEXT". End of input closes the consumer as "close" does.
#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdkafka.h"

enum { kCommitTimeoutMs = 10000, kMaxEvents = 64, kMaxBatches = 4096 };

static pthread_mutex_t events_lock = PTHREAD_MUTEX_INITIALIZER;
static char* events[kMaxEvents];
static int event_count;

// librdkafka's error callback (its own threads): kept for the next reply, and logged.
static void on_error(rd_kafka_t* rk, int err, const char* reason, void* opaque) {
  (void)rk;
  (void)opaque;
  fprintf(stderr, "share_consumer: error callback: %s: %s\n",
          rd_kafka_err2name((rd_kafka_resp_err_t)err), reason);
  pthread_mutex_lock(&events_lock);
  if (event_count < kMaxEvents) {
    const char* name = rd_kafka_err2name((rd_kafka_resp_err_t)err);
    size_t size = strlen(name) + strlen(reason) + 2;
    char* line = malloc(size);
    if (line != NULL) {
      snprintf(line, size, "%s %s", name, reason);
      events[event_count++] = line;
    }
  }
  pthread_mutex_unlock(&events_lock);
}

// Writes the pending error-callback events, then "end", and flushes.
static void end_reply(void) {
  pthread_mutex_lock(&events_lock);
  for (int i = 0; i < event_count; ++i) {
    printf("event %s\n", events[i]);
    free(events[i]);
  }
  event_count = 0;
  pthread_mutex_unlock(&events_lock);
  printf("end\n");
  fflush(stdout);
}

static void print_error(rd_kafka_error_t* error) {
  printf("error %s %s\n", rd_kafka_error_name(error), rd_kafka_error_string(error));
  rd_kafka_error_destroy(error);
}

static void print_bytes(const void* data, size_t size) {
  if (data == NULL) {
    fputs("-", stdout);
    return;
  }
  const unsigned char* bytes = data;
  if (size == 1 && bytes[0] == '-') {
    fputs("%2D", stdout);
    return;
  }
  for (size_t i = 0; i < size; ++i) {
    if (bytes[i] == '%' || !isgraph(bytes[i])) {
      printf("%%%02X", bytes[i]);
    } else {
      putchar(bytes[i]);
    }
  }
}

static long long now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// The batches of the last poll command: their messages are what "ack" acknowledges.
static rd_kafka_messages_t* batches[kMaxBatches];
static int batch_count;

static void drop_batches(void) {
  for (int i = 0; i < batch_count; ++i) rd_kafka_messages_destroy(batches[i]);
  batch_count = 0;
}

static void do_poll(rd_kafka_share_t* consumer, long wanted, long timeout_ms, int explicit_mode) {
  drop_batches();
  const long long deadline = now_ms() + timeout_ms;
  long received = 0;
  while (received < wanted && batch_count < kMaxBatches) {
    const long long left = deadline - now_ms();
    if (left <= 0) break;
    rd_kafka_messages_t* batch = NULL;
    rd_kafka_error_t* error = rd_kafka_share_poll(consumer, (int)left, &batch);
    if (error != NULL) {
      print_error(error);
      break;
    }
    if (batch == NULL) continue;
    batches[batch_count++] = batch;
    const size_t count = rd_kafka_messages_count(batch);
    for (size_t i = 0; i < count; ++i) {
      const rd_kafka_message_t* message = rd_kafka_messages_get(batch, i);
      if (message->err) {
        printf("error %s partition %" PRId32 " offset %" PRId64 ": %s\n",
               rd_kafka_err2name(message->err), message->partition, message->offset,
               rd_kafka_message_errstr(message));
        continue;
      }
      printf("%" PRId32 " %" PRId64 " %d ", message->partition, message->offset,
             (int)rd_kafka_message_delivery_count(message));
      print_bytes(message->key, message->key_len);
      putchar(' ');
      print_bytes(message->payload, message->len);
      putchar('\n');
      ++received;
    }
    if (explicit_mode && count > 0) break;
  }
  end_reply();
}

static int parse_type(const char* text, rd_kafka_share_AcknowledgeType_t* type) {
  if (strcmp(text, "accept") == 0) {
    *type = RD_KAFKA_SHARE_ACKNOWLEDGE_TYPE_ACCEPT;
  } else if (strcmp(text, "release") == 0) {
    *type = RD_KAFKA_SHARE_ACKNOWLEDGE_TYPE_RELEASE;
  } else if (strcmp(text, "reject") == 0) {
    *type = RD_KAFKA_SHARE_ACKNOWLEDGE_TYPE_REJECT;
  } else {
    return 0;
  }
  return 1;
}

static void do_ack(rd_kafka_share_t* consumer, const char* which, const char* type_text) {
  rd_kafka_share_AcknowledgeType_t type;
  if (!parse_type(type_text, &type)) {
    printf("error _INVALID_ARG acknowledge type %s is not accept, release or reject\n", type_text);
    end_reply();
    return;
  }
  const int all = strcmp(which, "all") == 0;
  long long partition = -1;
  long long offset = -1;
  if (!all) {
    const char* colon = strchr(which, ':');
    if (colon != NULL) {
      partition = strtoll(which, NULL, 10);
      offset = strtoll(colon + 1, NULL, 10);
    } else {
      offset = strtoll(which, NULL, 10);
    }
  }
  int acked = 0;
  for (int b = 0; b < batch_count; ++b) {
    const size_t count = rd_kafka_messages_count(batches[b]);
    for (size_t i = 0; i < count; ++i) {
      const rd_kafka_message_t* message = rd_kafka_messages_get(batches[b], i);
      if (message->err) continue;
      if (!all &&
          (message->offset != offset || (partition >= 0 && message->partition != partition)))
        continue;
      const rd_kafka_resp_err_t err = rd_kafka_share_acknowledge_type(consumer, message, type);
      if (err) {
        printf("error %s partition %" PRId32 " offset %" PRId64 ": %s\n", rd_kafka_err2name(err),
               message->partition, message->offset, rd_kafka_err2str(err));
      } else {
        ++acked;
      }
    }
  }
  printf("acked %d\n", acked);
  end_reply();
}

static void do_commit(rd_kafka_share_t* consumer) {
  rd_kafka_topic_partition_list_t* partitions = NULL;
  rd_kafka_error_t* error = rd_kafka_share_commit_sync(consumer, kCommitTimeoutMs, &partitions);
  if (error != NULL) print_error(error);
  if (partitions != NULL) {
    for (int i = 0; i < partitions->cnt; ++i) {
      printf("committed %" PRId32 " %s\n", partitions->elems[i].partition,
             rd_kafka_err2name(partitions->elems[i].err));
    }
    rd_kafka_topic_partition_list_destroy(partitions);
  }
  end_reply();
}

static int close_consumer(rd_kafka_share_t* consumer) {
  drop_batches();
  rd_kafka_error_t* error = rd_kafka_share_consumer_close(consumer);
  int status = 0;
  if (error != NULL) {
    print_error(error);
    status = 1;
  }
  error = rd_kafka_share_destroy(consumer);
  if (error != NULL) {
    print_error(error);
    status = 1;
  }
  printf("closed\n");
  end_reply();
  return status;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s BOOTSTRAP GROUP TOPIC [KEY=VALUE ...]\n", argv[0]);
    return 2;
  }
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  int explicit_mode = 0;
  const char* settings[][2] = {{"bootstrap.servers", argv[1]}, {"group.id", argv[2]}};
  for (size_t i = 0; i < sizeof settings / sizeof settings[0]; ++i) {
    if (rd_kafka_conf_set(conf, settings[i][0], settings[i][1], errstr, sizeof errstr) !=
        RD_KAFKA_CONF_OK) {
      fprintf(stderr, "share_consumer: %s\n", errstr);
      return 2;
    }
  }
  for (int i = 4; i < argc; ++i) {
    char* equals = strchr(argv[i], '=');
    if (equals == NULL) {
      fprintf(stderr, "share_consumer: option %s is not KEY=VALUE\n", argv[i]);
      return 2;
    }
    *equals = '\0';
    if (rd_kafka_conf_set(conf, argv[i], equals + 1, errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
      fprintf(stderr, "share_consumer: %s\n", errstr);
      return 2;
    }
    if (strcmp(argv[i], "share.acknowledgement.mode") == 0 && strcmp(equals + 1, "explicit") == 0)
      explicit_mode = 1;
  }
  rd_kafka_conf_set_error_cb(conf, on_error);
  rd_kafka_share_t* consumer = rd_kafka_share_consumer_new(conf, errstr, sizeof errstr);
  if (consumer == NULL) {
    fprintf(stderr, "share_consumer: rd_kafka_share_consumer_new: %s\n", errstr);
    return 2;
  }
  rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, argv[3], RD_KAFKA_PARTITION_UA);
  const rd_kafka_resp_err_t subscribed = rd_kafka_share_subscribe(consumer, topics);
  rd_kafka_topic_partition_list_destroy(topics);
  if (subscribed) {
    fprintf(stderr, "share_consumer: subscribe: %s\n", rd_kafka_err2str(subscribed));
    return 2;
  }
  printf("ready\n");
  fflush(stdout);

  char line[1024];
  while (fgets(line, sizeof line, stdin) != NULL) {
    char command[32] = "";
    char first[64] = "";
    char second[64] = "";
    const int words = sscanf(line, "%31s %63s %63s", command, first, second);
    if (words <= 0) continue;
    if (strcmp(command, "poll") == 0 && words == 3) {
      do_poll(consumer, strtol(first, NULL, 10), strtol(second, NULL, 10), explicit_mode);
    } else if (strcmp(command, "ack") == 0 && words == 3) {
      do_ack(consumer, first, second);
    } else if (strcmp(command, "commit") == 0 && words == 1) {
      do_commit(consumer);
    } else if (strcmp(command, "commit_async") == 0 && words == 1) {
      rd_kafka_error_t* error = rd_kafka_share_commit_async(consumer);
      if (error != NULL) print_error(error);
      end_reply();
    } else if (strcmp(command, "close") == 0 && words == 1) {
      return close_consumer(consumer);
    } else {
      printf("error _INVALID_ARG unknown command: %s", line);
      if (line[strlen(line) - 1] != '\n') putchar('\n');
      end_reply();
    }
  }
  return close_consumer(consumer);
}
