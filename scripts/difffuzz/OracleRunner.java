import java.io.*;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the JVM oracles (../shared/oracles, the development corpus, kept outside this
 * repository: CronOracle, CalendarOracle) one case at a
 * time in a single JVM, with a time limit per case: Quartz 2.3.2 loops forever on some
 * expressions it accepts (e.g. day-of-month "0W"), and one such case must not stop a run
 * of a million. Each input line is handed to the oracle's own main() as its whole stdin, and
 * what main() prints is passed on unchanged. A case over the limit is answered
 * {"id": ..., "oracle_timeout": true}; its thread is stopped (Thread.stop, JDK <= 19) or,
 * where the JDK cannot stop it, the runner exits with status 3 after that line so the
 * caller restarts it on the following cases.
 *
 *   java -cp ORACLE_BUILD:JARS:THIS_BUILD OracleRunner CronOracle MILLIS < cases > answers
 */
public final class OracleRunner {
    public static void main(String[] args) throws Exception {
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        long limit = Long.parseLong(args[1]);
        PrintStream realOut = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Worker worker = new Worker(main);
        for (String line; (line = in.readLine()) != null; ) {
            if (line.trim().isEmpty()) continue;
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            System.setIn(new ByteArrayInputStream((line + "\n").getBytes(StandardCharsets.UTF_8)));
            System.setOut(new PrintStream(captured, true, "UTF-8"));
            Throwable failure;
            try {
                failure = worker.run(limit);
            } catch (InterruptedException timeout) {
                realOut.println("{\"id\": " + idOf(line) + ", \"oracle_timeout\": true}");
                realOut.flush();
                if (!worker.kill()) System.exit(3);
                worker = new Worker(main);
                continue;
            }
            if (failure != null) {
                realOut.println("{\"id\": " + idOf(line) + ", \"oracle_crash\": \""
                        + String.valueOf(failure).replace("\\", "\\\\").replace("\"", "'") + "\"}");
                continue;
            }
            realOut.print(captured.toString("UTF-8"));
        }
        realOut.flush();
        System.exit(0);
    }

    /** One thread that runs main() once per case, handed over through a synchronous queue. */
    static final class Worker extends Thread {
        final Method main;
        final SynchronousQueue<Object> todo = new SynchronousQueue<>();
        final SynchronousQueue<Object> done = new SynchronousQueue<>();
        static final Object OK = new Object();

        Worker(Method main) {
            this.main = main;
            setDaemon(true);
            start();
        }

        @Override
        public void run() {
            try {
                while (true) {
                    todo.take();
                    Object result = OK;
                    try {
                        main.invoke(null, (Object) new String[0]);
                    } catch (Throwable t) {
                        result = t;
                    }
                    done.put(result);
                }
            } catch (InterruptedException | ThreadDeath stop) {
                // stopped after a timeout
            }
        }

        /** null, or what main() threw; InterruptedException when over the limit. */
        Throwable run(long limit) throws InterruptedException {
            todo.put(OK);
            Object result = done.poll(limit, TimeUnit.MILLISECONDS);
            if (result == null) throw new InterruptedException("timeout");
            return result == OK ? null : (Throwable) result;
        }

        @SuppressWarnings("deprecation")
        boolean kill() throws InterruptedException {
            try {
                stop();
            } catch (Throwable unsupported) {
                return false;
            }
            join(1000);
            return !isAlive();
        }
    }

    /** The raw JSON text of the "id" member (the generators write numbers). */
    static String idOf(String line) {
        int at = line.indexOf("\"id\":");
        if (at < 0) return "null";
        int start = at + 5;
        while (start < line.length() && line.charAt(start) == ' ') start++;
        int end = start;
        while (end < line.length() && ",}".indexOf(line.charAt(end)) < 0) end++;
        return line.substring(start, end).trim();
    }
}
