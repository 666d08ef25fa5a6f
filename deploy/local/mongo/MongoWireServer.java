import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * Serves the MongoDB wire protocol on 127.0.0.1:&lt;port&gt; from memory until the process is
 * stopped. Reports MongoDB 5.0 so the mongodb 6.x Node driver accepts it (wire version 13).
 * Run: java -cp &lt;classpath&gt; MongoWireServer.java &lt;port&gt;
 */
public class MongoWireServer {
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    MongoServer server = new MongoServer(new MemoryBackend().version(ServerVersion.MONGO_5_0));
    server.bind("127.0.0.1", port);
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    System.out.println("mongo-wire-server listening on 127.0.0.1:" + port);
    Thread.currentThread().join();
  }
}
