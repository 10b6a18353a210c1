package conversation

import "testing"

func TestConversationRefs(t *testing.T) {
	var c Conversation
	c = c.Append("p", 1, 1, 10).Append("p", 2, 2, 20).Append("c", 1, 1, 5)
	if len(c) != 2 || c.Len() != 4 || c.Bytes() != 35 {
		t.Fatalf("%+v", c)
	}
	refs := c.Refs()
	if refs[2] != (Ref{"p", 3}) || refs[3] != (Ref{"c", 1}) {
		t.Fatalf("refs %+v", refs)
	}
	if p := c.Prefix(2); p.Len() != 2 || len(p) != 1 {
		t.Fatalf("prefix %+v", p)
	}
	if c2 := c.Append("c", 2, 1, 1); c[1].Count != 1 || c2[1].Count != 2 {
		t.Fatal("Append must not change its receiver")
	}
}
