#!/bin/bash
# Rewind/fork timing on a 10,000-file workspace with checkpoints (issue 30).
set -e
export GOTOOLCHAIN=go1.27.3 TEMPORAL_ADDRESS= TOOLPIPE_LOG_LEVEL=error
ST=${ST:-$(command -v starter)}
[ -x "$ST" ] || { echo "set ST to a built starter (go build -o /tmp/starter ./cmd/starter)" >&2; exit 2; }
rm -rf w st fork && mkdir -p w fork
python3 - <<'PY'
import os
for d in range(50):
    os.makedirs(f"w/d{d}", exist_ok=True)
    for f in range(200):
        with open(f"w/d{d}/f{f}.txt","w") as fh: fh.write(("line %d %d\n" % (d,f))*20)
with open("w/gone.txt","w") as fh: fh.write("x\n")
with open("w/edit.txt","w") as fh: fh.write("before\n")
W=os.path.abspath("w")
import json
script={"responses":[
 {"content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":W+"/new.txt","content":"new\n"}}]},
 {"content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"rm gone.txt"}}]},
 {"content":[{"type":"tool_use","id":"t3","name":"Read","input":{"file_path":W+"/edit.txt"}},{"type":"tool_use","id":"t4","name":"Edit","input":{"file_path":W+"/edit.txt","old_string":"before","new_string":"after"}}]},
 {"content":[{"type":"text","text":"done"}]}]}
json.dump(script, open("script.json","w"))
PY
ls w | wc -l
t0=$(date +%s.%N); $ST agent --state-dir st --ui=false --workdir w --fake-model script.json --checkpoints --session S "three turns" > /dev/null; t1=$(date +%s.%N)
echo "session (first capture included): $(echo "$t1 - $t0" | bc) s"
for i in 1 2 3; do
  t0=$(date +%s.%N); $ST agent rewind S --to 2 --state-dir st --ui=false --workdir w > /dev/null; t1=$(date +%s.%N)
  t2=$(date +%s.%N); $ST agent rewind S --to LATEST --state-dir st --ui=false --workdir w > /dev/null; t3=$(date +%s.%N)
  echo "rewind both: $(echo "$t1 - $t0" | bc) s; LATEST: $(echo "$t3 - $t2" | bc) s"
done
for i in 1 2 3; do
  rm -rf fork && mkdir fork
  t0=$(date +%s.%N); $ST agent fork S --at 2 --session F$i --state-dir st --ui=false --workdir fork > /dev/null; t1=$(date +%s.%N)
  echo "fork with files: $(echo "$t1 - $t0" | bc) s ($(find fork -type f | wc -l) files)"
done
uptime
