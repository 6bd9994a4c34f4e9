# Shared by the benchmark scripts: N copies of the compiled sample bot bots/cgap, each in its
# own folder launched through `#!/bin/sh` + `exec ./bot` (as a bot author's folder would be).
# Source it, then: cgap_bots FOLDER N  (compiles once per call; needs gcc; run from the repo).
cgap_bots() {
  local folder=$1 n=$2 i
  mkdir -p "$folder"
  gcc -O2 -o "$folder/.bot" bots/cgap/bot.c
  for ((i = 0; i < n; i++)); do
    mkdir -p "$folder/c$i"
    cp "$folder/.bot" "$folder/c$i/bot"
    printf '#!/bin/sh\nexec ./bot\n' >"$folder/c$i/launch"
    chmod +x "$folder/c$i/launch"
  done
  rm "$folder/.bot"
}

# The same for Kingdomino: N copies of bots-kingdomino/kdfirst, each saying in bot.toml that it
# plays Kingdomino.  kdfirst_bots FOLDER N
kdfirst_bots() {
  local folder=$1 n=$2 i
  mkdir -p "$folder"
  gcc -O2 -o "$folder/.bot" bots-kingdomino/kdfirst/bot.c
  for ((i = 0; i < n; i++)); do
    mkdir -p "$folder/c$i"
    cp "$folder/.bot" "$folder/c$i/bot"
    printf '#!/bin/sh\nexec ./bot\n' >"$folder/c$i/launch"
    printf 'games = ["kingdomino"]\n' >"$folder/c$i/bot.toml"
    chmod +x "$folder/c$i/launch"
  done
  rm "$folder/.bot"
}
