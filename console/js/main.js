// The console's entry point: opens the event feed, builds each view and wires them together
// (choosing a group in the Groups view shows its timeline; with several brokers the Topics
// view and the timeline show replication; rebalances and broker changes are announced to
// screen readers through the aria-live region).

import { BrokersView } from './brokers_view.js';
import { ClusterTimelineView } from './cluster_timeline_view.js';
import { EventFeed } from './event_feed.js';
import { GroupsView } from './groups_view.js';
import { PlaygroundView } from './playground_view.js';
import { TimelineView } from './timeline_view.js';
import { TopicsView } from './topics_view.js';

const ANNOUNCEMENTS_KEPT = 5;

function announce(text) {
  const region = document.getElementById('announcer');
  region.append(Object.assign(document.createElement('p'), { textContent: text }));
  while (region.childElementCount > ANNOUNCEMENTS_KEPT) region.firstElementChild.remove();
}

function showFeedStatus(text, live) {
  const status = document.getElementById('feed-status');
  status.textContent = text;
  status.classList.toggle('live', live);
}

async function start() {
  const feed = new EventFeed(showFeedStatus);
  await feed.open();
  const timeline = new TimelineView(feed, announce);
  const groups = new GroupsView(feed, (groupId) => timeline.show(groupId));
  groups.onGroups = (ids) => timeline.setGroups(ids);
  const topics = new TopicsView();
  const clusterEvents = new ClusterTimelineView(feed, announce);
  new BrokersView(feed, announce, (brokers) => {
    topics.setClustered(brokers.length > 1);
    clusterEvents.setClustered(brokers.length > 1);
  });
  new PlaygroundView(announce);
  document.body.dataset.ready = 'true';
}

start();
