package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzDecodePlanAnswer: any reply payload decodes to exactly one of an
// invocation with a bounded skill name, or done, or to a bad_request
// *Error; never a panic. An accepted answer encodes and decodes to itself.
func FuzzDecodePlanAnswer(f *testing.F) {
	for _, s := range []string{
		`{"invocation":{"skill":"chop_tree","params":{"min_logs":4}}}`,
		`{"invocation":{"skill":"basic_crafting","params":{"item":"minecraft:stick","count":8}},"reason":"sticks"}`,
		`{"done":true,"reason":"enough"}`,
		`{"done":true,"invocation":{"skill":"x"}}`,
		`{"invocation":{"skill":"x","params":{"a":[1,2.5,{"b":1e400}]}}}`,
		`{}`, `null`, `[]`, `{"done":true} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		a, err := DecodePlanAnswer(payload)
		if err != nil {
			if CodeOf(err) != CodeBadRequest {
				t.Fatalf("error %v is not a bad_request *Error", err)
			}
			return
		}
		if a.Done == (a.Invocation != nil) {
			t.Fatalf("accepted %+v: want exactly one of invocation and done", a)
		}
		if a.Invocation != nil && (strings.TrimSpace(a.Invocation.Skill) == "" || len(a.Invocation.Skill) > MaxSkillName) {
			t.Fatalf("accepted skill %q", a.Invocation.Skill)
		}
		if len(a.Reason) > MaxPlanReason+len("…") {
			t.Fatalf("a reason of %d bytes", len(a.Reason))
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", a, err)
		}
		again, err := DecodePlanAnswer(b)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", b, err)
		}
		if again.String() != a.String() || again.Reason != a.Reason {
			t.Fatalf("round trip %q → %q", a, again)
		}
	})
}

// TestDecodePlanAnswer: each rule of the answer's form.
func TestDecodePlanAnswer(t *testing.T) {
	long := strings.Repeat("r", MaxPlanReason+10)
	for _, tc := range []struct {
		in, err string
		want    string // PlanAnswer.String of an accepted answer
	}{
		{in: `{"invocation":{"skill":"chop_tree","params":{"min_logs":4,"r":2.5}}}`, want: "chop_tree map[min_logs:4 r:2.5]"},
		{in: `{"done":true}`, want: "done"},
		{in: ` {"done":true} `, want: "done"},
		{in: `{"invocation":{"skill":"a"},"done":true}`, err: "both"},
		{in: `{"invocation":{"skill":"a"},"done":false}`, want: "a map[]"},
		{in: `{"reason":"x"}`, err: "neither"},
		{in: `{"invocation":null}`, err: "neither"},
		{in: ``, err: "empty"},
		{in: `{"invocation":{"skill":"  "}}`, err: "names no skill"},
		{in: `{"invocation":{"skill":"` + strings.Repeat("s", MaxSkillName+1) + `"}}`, err: "exceeds"},
		{in: `{"invocation":{"skill":"` + strings.Repeat("s", MaxSkillName) + `"}}`, want: strings.Repeat("s", MaxSkillName) + " map[]"},
		{in: `{"invocation":{"skill":"a","param":{}}}`, err: `unknown field "param"`},
		{in: `{"done":true}{"done":true}`, err: "after the object"},
		{in: `{"done":"yes"}`, err: "plan answer"},
	} {
		a, err := DecodePlanAnswer([]byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || CodeOf(err) != CodeBadRequest {
				t.Errorf("%s: got %v, %v; want a bad_request containing %q", tc.in, a, err, tc.err)
			}
			continue
		}
		if err != nil || a.String() != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.in, a, err, tc.want)
		}
	}
	a, err := DecodePlanAnswer([]byte(`{"done":true,"reason":"` + long + `"}`))
	if err != nil || len(a.Reason) != MaxPlanReason+len("…") {
		t.Errorf("a long reason: %d bytes, %v", len(a.Reason), err)
	}
	a, err = DecodePlanAnswer([]byte(`{"invocation":{"skill":"a","params":{"n":3,"f":0.5,"l":[1,2]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Invocation.Params["n"].(int64); !ok {
		t.Errorf("an integer parameter is %T", a.Invocation.Params["n"])
	}
	if _, ok := a.Invocation.Params["f"].(float64); !ok {
		t.Errorf("a fractional parameter is %T", a.Invocation.Params["f"])
	}
	if l, ok := a.Invocation.Params["l"].([]any); !ok || l[0] != int64(1) {
		t.Errorf("a list parameter is %#v", a.Invocation.Params["l"])
	}
}
