// The line reader of src-java (see Bot.java): exact lines, or a failure.
import java.io.FileWriter;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

class Lines {
    private final InputStream in = System.in;

    static void verdict(String text) throws Exception {
        try (FileWriter f = new FileWriter("verdicts.txt", true)) {
            f.write(text + "\n");
        }
    }

    void fail(String why) throws Exception {
        verdict("FAIL " + why);
        System.err.println("src-java: " + why);
        System.exit(3);
    }

    /** One line, which must end in a newline. */
    String line() throws Exception {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) fail("input ended early: " + b);
            b.append((char) c);
        }
        return b.toString();
    }

    boolean more() throws Exception {
        return in.read() >= 0;
    }

    /** s as WORD and count numbers (any count if negative). */
    List<Integer> words(String s, String word, int count) throws Exception {
        if (!s.matches(word + "( [0-9]+)*")) fail("expected " + word + ", got " + s);
        List<Integer> nums = new ArrayList<>();
        String[] parts = s.split(" ");
        for (int i = 1; i < parts.length; i++) nums.add(Integer.parseInt(parts[i]));
        if (count >= 0 && nums.size() != count) fail("wrong count: " + s);
        return nums;
    }
}
