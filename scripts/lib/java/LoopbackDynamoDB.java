// DynamoDB Local bound to the loopback only. DynamoDBLocal.jar has no option for the listening address:
// its Jetty server listens on every interface. This starts the same server from the same command-line
// options, sets the connector's host to 127.0.0.1 before it starts, then runs it like the jar's own main.
// Java runs this file from source (java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* LoopbackDynamoDB.java …).
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackDynamoDB {
  public static void main(String[] args) throws Exception {
    String host = System.getProperty("flockwise.host", "127.0.0.1");
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    int bound = 0;
    for (Connector connector : server.getConnectors()) {
      if (connector instanceof ServerConnector) {
        ((ServerConnector) connector).setHost(host);
        bound++;
      }
    }
    if (bound == 0) throw new IllegalStateException("DynamoDB Local has no network connector to bind to " + host);
    proxy.start();
    System.err.println("DynamoDB Local listening on " + host);
    proxy.join();
  }
}
