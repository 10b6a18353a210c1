package claudesdk

// scenario is one program of programs/src/scenarios.ts with the fake model's
// script and the files its working directory starts with.
type scenario struct {
	name   string
	script [][]block
	files  map[string]string
}

// scenarios are run against both executables and compared.
var scenarios = []scenario{
	{name: "plain", script: [][]block{{text("Hello!")}}},
	{name: "parallel-reads", files: map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"},
		script: [][]block{
			{text("Reading both."), use("toolu_r1", "Read", `{"file_path":"$CWD/a.txt"}`), use("toolu_r2", "Read", `{"file_path":"$CWD/b.txt"}`)},
			{text("a.txt says alpha, b.txt says beta.")},
		}},
	{name: "denied", script: [][]block{
		{use("toolu_b1", "Bash", `{"command":"echo made > made.txt","description":"Create made.txt"}`)},
		{text("I was not allowed to.")},
	}},
	{name: "no-can-use-tool", script: [][]block{
		{use("toolu_b1", "Bash", `{"command":"echo made > made.txt","description":"Create made.txt"}`)},
		{text("I was not allowed to.")},
	}},
	{name: "allowed", script: [][]block{
		{use("toolu_b1", "Bash", `{"command":"echo made > made.txt","description":"Create made.txt"}`)},
		{text("Created.")},
	}},
	{name: "hook-blocks", script: [][]block{
		{use("toolu_b1", "Bash", `{"command":"echo made > made.txt","description":"Create made.txt"}`)},
		{text("The hook blocked it.")},
	}},
	{name: "sdk-mcp", script: [][]block{
		{use("toolu_m1", "mcp__calc__add", `{"a":2,"b":3}`)},
		{text("2 + 3 = 5.")},
	}},
	{name: "partial", files: map[string]string{"a.txt": "alpha\n"}, script: [][]block{
		{text("Reading."), use("toolu_r1", "Read", `{"file_path":"$CWD/a.txt"}`)},
		{text("It says alpha.")},
	}},
	{name: "max-turns", files: map[string]string{"a.txt": "alpha\n"}, script: [][]block{
		{use("toolu_r1", "Read", `{"file_path":"$CWD/a.txt"}`)},
		{text("Never sent: the turn limit comes first.")},
	}},
	{name: "interrupt", script: [][]block{
		{use("toolu_s1", "Bash", `{"command":"touch started && sleep 30","description":"Slow command"}`)},
		{text("Interrupted.")},
	}},
	{name: "streaming", script: [][]block{
		{text("First answer.")},
		{text("Second answer.")},
	}},
	{name: "resume", script: [][]block{
		{text("I will remember apple.")},
		{text("The word was apple.")},
	}},
}
