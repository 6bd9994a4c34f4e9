// A duel bot built only as Botzone's compiler builds: without _BOTZONE_ONLINE it reads a
// local test file (as many Botzone bots do to debug on their author's machine) and fails; it
// uses GNU C++'s typeof (not in ISO mode) and the libraries Botzone provides to C++ programs,
// nlohmann/json and Eigen. Started afresh each turn: one line of JSON in (requests one more
// than responses, every response {"n": 2}, the data it left last turn, no globaldata),
// {"response": {"n": 2}, "data": ...} out. On anything else it exits 1 with the reason.
#include <cstdio>
#include <iostream>
#include <string>
#include <nlohmann/json.hpp>
#include <Eigen/Dense>

static int fail(const std::string &why) {
    std::fprintf(stderr, "bz-online: %s\n", why.c_str());
    return 1;
}

int main() {
#ifndef _BOTZONE_ONLINE
    if (!std::freopen("data.json", "r", stdin)) return fail("not built with -D_BOTZONE_ONLINE: no data.json");
#endif
    typeof(2) two = 2;
    Eigen::Vector2i v(two, 0);
    std::string line;
    if (!std::getline(std::cin, line)) return fail("no input line");
    nlohmann::json input = nlohmann::json::parse(line, nullptr, false);
    if (!input.is_object()) return fail("the input is not a JSON object: " + line);
    for (auto &[key, value] : input.items())
        if (key != "requests" && key != "responses" && key != "data" && key != "time_limit" && key != "memory_limit")
            return fail("unexpected key " + key);
    auto &requests = input["requests"], &responses = input["responses"];
    size_t turn = requests.size();
    if (turn != responses.size() + 1) return fail("requests are not one more than responses");
    for (auto &r : responses)
        if (r != nlohmann::json{{"n", 2}}) return fail("a response is not what it answered");
    // data is absent on the first turn (bot.py sends it only when there is some), then the
    // object it left.
    if (turn == 1 && input.contains("data")) return fail("data on the first turn: " + line);
    if (turn > 1 && input["data"] != nlohmann::json{{"turn", turn - 1}}) return fail("data is not what it left: " + line);
    nlohmann::json out = {{"response", {{"n", v.sum()}}}, {"data", {{"turn", turn}}}};
    std::cout << out.dump() << std::endl;
    return 0;
}
