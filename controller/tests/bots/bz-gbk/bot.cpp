// A duel bot whose source is GBK-encoded, as Visual Studio writes it on Chinese Windows
// (Botzone's students' sources often are): this comment, the string below and the include of
// Botzone's "jsoncpp/json.h" must reach the compiler as they are. // 简单的机器人
// Started afresh each turn: one line of JSON in (requests one more than responses, every
// response {"n": 2}), {"response": {"n": 2}} out. On anything else it exits 1.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include "jsoncpp/json.h"

static int fail(const char *why) {
    std::fprintf(stderr, "bz-gbk: %s\n", why);
    return 1;
}

int main() {
    // Two characters of GBK are four bytes; as UTF-8 they would be six.
    const char *hello = "你好";
    if (std::strlen(hello) != 4) return fail("the GBK string did not reach the compiler as bytes");
    std::string line;
    if (!std::getline(std::cin, line)) return fail("no input line");
    Json::Value input;
    Json::Reader reader;
    if (!reader.parse(line, input) || !input.isObject()) return fail("the input is not a JSON object");
    const Json::Value &requests = input["requests"], &responses = input["responses"];
    if (!requests.isArray() || !responses.isArray() || requests.size() != responses.size() + 1)
        return fail("requests are not one more than responses");
    for (Json::ArrayIndex i = 0; i < responses.size(); i++)
        if (responses[i]["n"].asInt() != 2) return fail("a response is not what it answered");
    Json::Value out;
    out["response"]["n"] = 2;
    Json::FastWriter writer;
    std::cout << writer.write(out) << std::flush;
    return 0;
}
