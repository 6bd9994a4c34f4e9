// NAME: a Take 6! bot for take6 (the default protocol: docs/protocol.md), written by
// `take6 new`. It plays the lowest card of its hand and, asked for a row, takes the one with
// the fewest cows. Put your strategy in chooseCard and chooseRow; the rest reads the protocol.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class Bot {
    /** The card to play: one of hand. Per row 0-3: its cards, its cows, its last card. */
    static int chooseCard(List<Integer> hand, int[] count, int[] cows, int[] top) {
        return Collections.min(hand);
    }

    /** The row to take (0-3) when the card played is lower than every row's last card. */
    static int chooseRow(int[] count, int[] cows, int[] top) {
        int best = 0;
        for (int r = 1; r < 4; r++) if (cows[r] < cows[best]) best = r;
        return best;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        List<Integer> hand = new ArrayList<>();
        int[] count = new int[4], cows = new int[4];
        boolean picking = false;
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.trim().split("\\s+");
            int[] numbers = new int[words.length - 1];
            for (int i = 1; i < words.length; i++) numbers[i - 1] = Integer.parseInt(words[i]);
            switch (words[0]) {
                case "cards":
                    hand.clear();
                    for (int n : numbers) hand.add(n);
                    break;
                case "count": count = numbers; break;
                case "cows": cows = numbers; break;
                case "pickrow": picking = true; break;
                case "top": // the last line of a question: reply, and flush
                    if (picking) {
                        System.out.println(chooseRow(count, cows, numbers));
                        picking = false;
                    } else {
                        int card = chooseCard(hand, count, cows, numbers);
                        hand.remove(Integer.valueOf(card));
                        System.out.println(card);
                    }
                    System.out.flush();
                    break;
                case "invalid": return;
                default: break; // used, cardgain, cowgain, score, others: news, no reply
            }
        }
    }
}
