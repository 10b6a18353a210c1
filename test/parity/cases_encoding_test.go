package parity

import "testing"

// Text encodings, line endings and quote styles (issue 28, area 2): what Read
// shows, what Grep prints and what Edit and Write match and keep, for files in
// UTF-16 with a byte-order mark, files that are not UTF-8, CRLF files, and curly
// quotes. The fixtures are under testdata/encodings.

func fx(name, src string) map[string]string { return map[string]string{name: "encodings/" + src} }

var encodingCases = []parityCase{
	{name: "enc_read_utf16le", fixtures: fx("f.txt", "utf16le_bom.txt"), blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`)}},
	{name: "enc_read_utf16le_range", fixtures: fx("f.txt", "utf16le_bom.txt"), blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt","offset":2,"limit":1}`)}},
	{name: "enc_read_utf16le_crlf", fixtures: fx("f.txt", "utf16le_crlf.txt"), blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`)}},
	{name: "enc_read_utf16be", fixtures: fx("f.txt", "utf16be_bom.txt"), blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`)}},
	{name: "enc_read_latin1", fixtures: fx("f.txt", "latin1.txt"), blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`)}},
	{name: "enc_read_crlf_range", fixtures: fx("f.txt", "crlf.txt"), blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt","offset":2,"limit":1}`)}},
	{name: "enc_read_mixed", fixtures: fx("f.txt", "mixed_eol.txt"), blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`)}},
	{name: "enc_read_cr_only", fixtures: fx("f.txt", "cr_only.txt"), blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`)}},
	{name: "enc_read_bom_crlf", fixtures: fx("f.txt", "bom_crlf.txt"), blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`)}},
	{name: "enc_grep_crlf", fixtures: fx("f.txt", "crlf.txt"), blocks: []caseBlock{blk("Grep", `{"pattern":"TODO","path":"$D","output_mode":"content"}`)}},
	{name: "enc_grep_crlf_eol", fixtures: fx("f.txt", "crlf.txt"), blocks: []caseBlock{blk("Grep", `{"pattern":"TODO$","path":"$D","output_mode":"content"}`)}},
	{name: "enc_grep_utf16le", fixtures: fx("f.txt", "utf16le_bom.txt"), blocks: []caseBlock{blk("Grep", `{"pattern":"TODO","path":"$D","output_mode":"content"}`)}},
	{name: "enc_grep_utf16le_files", fixtures: fx("f.txt", "utf16le_bom.txt"), blocks: []caseBlock{blk("Grep", `{"pattern":"wörld","path":"$D"}`)}},
	{name: "enc_grep_latin1", fixtures: fx("f.txt", "latin1.txt"), blocks: []caseBlock{blk("Grep", `{"pattern":"TODO","path":"$D","output_mode":"content"}`)}},
	{name: "enc_grep_cr_only", fixtures: fx("f.txt", "cr_only.txt"), blocks: []caseBlock{blk("Grep", `{"pattern":"TODO","path":"$D","output_mode":"content"}`)}},
	{name: "enc_edit_crlf_multiline", fixtures: fx("f.txt", "crlf.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"one\ntwo TODO","new_string":"ONE\nTWO\nextra"}`)}},
	{name: "enc_edit_crlf_single", fixtures: fx("f.txt", "crlf.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"three","new_string":"3"}`)}},
	{name: "enc_edit_crlf_given_crlf", fixtures: fx("f.txt", "crlf.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"one\r\ntwo","new_string":"1\r\n2"}`)}},
	{name: "enc_edit_mixed", fixtures: fx("f.txt", "mixed_eol.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"b\nc","new_string":"B\nC"}`)}},
	{name: "enc_edit_lf_majority", fixtures: fx("f.txt", "crlf_lf_majority.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"a\nb","new_string":"A\nB"}`)}},
	{name: "enc_edit_bom_crlf", fixtures: fx("f.txt", "bom_crlf.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"one","new_string":"uno\nmore"}`)}},
	{name: "enc_edit_utf16le", fixtures: fx("f.txt", "utf16le_bom.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"second line","new_string":"2nd línea"}`)}},
	{name: "enc_edit_utf16le_crlf", fixtures: fx("f.txt", "utf16le_crlf.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"wörld\nsecond","new_string":"world\n2nd"}`)}},
	{name: "enc_edit_utf16be", fixtures: fx("f.txt", "utf16be_bom.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"second","new_string":"2nd"}`)}},
	{name: "enc_edit_latin1", fixtures: fx("f.txt", "latin1.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"end","new_string":"fin"}`)}},
	{name: "enc_edit_curly_double", fixtures: fx("f.txt", "curly.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"said \"hello\" to","new_string":"said \"goodbye\" to"}`)}},
	{name: "enc_edit_curly_single", fixtures: fx("f.txt", "curly.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"It's 'fine'.","new_string":"It's 'great', isn't it."}`)}},
	{name: "enc_edit_curly_exact", fixtures: fx("f.txt", "curly.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"“hello”","new_string":"\"hi\""}`)}},
	{name: "enc_edit_straight_in_file", files: map[string]string{"f.txt": "say \"hi\" now\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"“hi”","new_string":"“yo”"}`)}},
	{name: "enc_write_crlf_new", blocks: []caseBlock{blk("Write", `{"file_path":"$D/n.txt","content":"a\r\nb\r\n"}`)}},
	{name: "enc_write_over_crlf", fixtures: fx("f.txt", "crlf.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Write", `{"file_path":"$D/f.txt","content":"x\ny\n"}`)}},
	{name: "enc_write_over_utf16le", fixtures: fx("f.txt", "utf16le_bom.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Write", `{"file_path":"$D/f.txt","content":"new ü\n"}`)}},
	{name: "enc_write_over_latin1", fixtures: fx("f.txt", "latin1.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Write", `{"file_path":"$D/f.txt","content":"now utf8 é\n"}`)}},
	{name: "enc_write_over_bom", fixtures: fx("f.txt", "bom_crlf.txt"),
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Write", `{"file_path":"$D/f.txt","content":"plain\n"}`)}},
}

// TestParityEncodings compares Read, Grep, Edit and Write on files in other
// encodings and line endings, and Edit's quote handling (cases_encoding_test.go).
func TestParityEncodings(t *testing.T) {
	compare(t, "encodings", encodingCases)
}
