# The duel's padding bot: 1, 2, 3, 1, ... by round, started afresh each turn.
import json

inp = json.loads(input())
print(json.dumps({"response": {"n": (len(inp["requests"]) - 1) % 3 + 1}}))
