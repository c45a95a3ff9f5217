// Run by up.sh as a single-file program: java -cp '<kafka libs>/*' KafkaInit.java BOOTSTRAP TOPICS_FILE TIMEOUT_SECONDS
// 1. waits until the broker answers a metadata call (describeCluster),
// 2. creates every topic in TOPICS_FILE with Kafka's own TopicCommand (--create --if-not-exists),
//    all in this one JVM (a JVM per topic would cost ~2 s each),
// 3. waits until every partition has a leader and checks the partition counts,
// 4. makes the broker create __consumer_offsets (group coordinator) before any test needs it.
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.tools.TopicCommand;

public class KafkaInit {
    // TopicCommand ends every run with Exit.exit(code) (inside execute(), then again in main()).
    // Kafka's Exit lets us replace System.exit: keep the first code of each run and return.
    static Integer firstExitCode;

    static int topicCommand(String... args) {
        firstExitCode = null;
        TopicCommand.main(args);
        return firstExitCode == null ? 0 : firstExitCode;
    }

    static void fail(String msg) {
        System.err.println("KafkaInit: " + msg);
        System.exit(1);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) fail("usage: KafkaInit BOOTSTRAP TOPICS_FILE TIMEOUT_SECONDS");
        String bootstrap = args[0];
        long deadline = System.currentTimeMillis() + Long.parseLong(args[2]) * 1000L;
        Exit.setExitProcedure((code, msg) -> {
            if (firstExitCode == null) firstExitCode = code;
        });

        Map<String, Integer> topics = new LinkedHashMap<>();
        for (String raw : Files.readAllLines(Paths.get(args[1]))) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            String[] f = line.split("\\s+");
            if (f.length != 2) fail("bad line in " + args[1] + ": '" + raw + "' (want: name partitions)");
            topics.put(f[0], Integer.parseInt(f[1]));
        }

        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("request.timeout.ms", "5000");
        props.put("default.api.timeout.ms", "10000");
        props.put("reconnect.backoff.max.ms", "500");
        try (Admin admin = Admin.create(props)) {
            // 1. metadata call
            Exception last = null;
            while (true) {
                try {
                    var nodes = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    if (!nodes.isEmpty()) {
                        StringBuilder sb = new StringBuilder();
                        for (Node n : nodes) sb.append(' ').append(n.host()).append(':').append(n.port()).append(" (id ").append(n.id()).append(')');
                        System.out.println("KafkaInit: broker answers metadata:" + sb);
                        break;
                    }
                } catch (Exception e) {
                    last = e;
                }
                if (System.currentTimeMillis() > deadline) fail("no metadata answer from " + bootstrap + ": " + last);
                Thread.sleep(250);
            }

            // 2. create topics with TopicCommand
            for (Map.Entry<String, Integer> t : topics.entrySet()) {
                int rc = topicCommand("--bootstrap-server", bootstrap, "--create", "--if-not-exists",
                        "--topic", t.getKey(), "--partitions", String.valueOf(t.getValue()), "--replication-factor", "1");
                if (rc != 0) fail("TopicCommand --create " + t.getKey() + " exited " + rc);
            }

            // 3. wait for leaders, check partition counts
            List<String> problems = new ArrayList<>();
            while (true) {
                problems.clear();
                try {
                    Map<String, TopicDescription> d = admin.describeTopics(topics.keySet()).allTopicNames().get(10, TimeUnit.SECONDS);
                    for (Map.Entry<String, Integer> t : topics.entrySet()) {
                        TopicDescription td = d.get(t.getKey());
                        if (td.partitions().size() != t.getValue()) {
                            fail("topic " + t.getKey() + " has " + td.partitions().size() + " partitions, topics.txt wants " + t.getValue());
                        }
                        for (TopicPartitionInfo p : td.partitions()) {
                            if (p.leader() == null || p.leader().isEmpty()) problems.add(t.getKey() + "-" + p.partition() + " has no leader");
                        }
                    }
                } catch (Exception e) {
                    problems.add(e.toString());
                }
                if (problems.isEmpty()) break;
                if (System.currentTimeMillis() > deadline) fail("topics not ready: " + problems);
                Thread.sleep(200);
            }
            // 4. have the broker create __consumer_offsets now (a FindCoordinator does it), so the
            //    first consumer group of a test does not meet "group coordinator not available"
            while (true) {
                try {
                    admin.listConsumerGroupOffsets("deploy-local-warmup").partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
                    break;
                } catch (Exception e) {
                    if (System.currentTimeMillis() > deadline) fail("group coordinator not available: " + e);
                    Thread.sleep(200);
                }
            }

            int partitions = topics.values().stream().mapToInt(Integer::intValue).sum();
            System.out.println("KafkaInit: " + topics.size() + " topics, " + partitions + " partitions, all with a leader; group coordinator up");
        }
        System.exit(0);
    }
}
