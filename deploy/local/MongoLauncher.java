// Fallback MongoDB wire server (in memory), used by up.sh only when FerretDB cannot be built.
// mongo-java-server's own main classes bind localhost:27017 only; this binds HOST:PORT.
// Run: java -cp '<mongo-java-server libs>/*' MongoLauncher.java PORT [HOST]
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

public class MongoLauncher {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String host = args.length > 1 ? args[1] : "127.0.0.1";
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind(host, port);
        System.out.println("mongo-java-server listening on " + server.getLocalAddress());
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
        Thread.currentThread().join();
    }
}
