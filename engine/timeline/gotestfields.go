package timeline

import (
	"strings"

	"github.com/leaselab/leaselab/engine"
)

// fields writes the checks of an expectation's field=value parts.
func (c *goCall) fields() {
	if c.s.Expect == nil {
		return
	}
	rowRead := false
	var receipt, stored []FieldCheck
	for _, f := range c.s.Expect.Fields {
		switch {
		case f.Key == "job":
			c.want("String", "job", c.job, goQuote(none(f.Want)))
		case f.Key == "winner":
			c.f.use("strings")
			c.want("String", "winner", `strings.Join(won, ",")`, goQuote(none(f.Want)))
		case f.Key == "losers":
			c.f.use("wantRefusal")
			c.check("for _, o := range []string{%s} {", c.contenders())
			c.check("\tif !contains(won, o) {")
			c.check("\t\twantRefusal(%s, \"loser.\"+o, heard[o], %s)", c.ln, sentinel(engine.Refusal(f.Want)))
			c.check("\t}")
			c.check("}")
			c.f.use("contains")
		case strings.HasPrefix(f.Key, "loser."):
			c.f.use("wantRefusal")
			name := strings.TrimPrefix(f.Key, "loser.")
			c.check("wantRefusal(%s, %s, heard[%s], %s)", c.ln, goQuote(f.Key), goQuote(name), sentinel(engine.Refusal(f.Want)))
		case f.Key == "enqueued":
			c.want("Bool", "enqueued", "created", f.Want)
		case f.Key == "delivered" || f.Key == "total" || strings.HasPrefix(f.Key, "receipt."):
			receipt = append(receipt, f)
		case strings.HasPrefix(f.Key, "storage."):
			stored = append(stored, f)
		default:
			if !rowRead {
				c.f.use("row")
				c.check("j := row(%s, %s)", c.ln, c.job)
				rowRead = true
			}
			c.rowField(f)
		}
	}
	c.receiptFields(receipt)
	c.storedFields(stored)
}

// want writes one check by the helper wantKind.
func (c *goCall) want(kind, field, got, want string) {
	c.f.use("want" + kind)
	c.check("want%s(%s, %s, %s, %s)", kind, c.ln, goQuote(field), got, want)
}

var rowFields = map[string]string{
	"token": "Token", "lease_until": "LeaseUntil", "attempt": "Attempts", "attempts": "Attempts",
	"qty": "Qty", "deadline": "Deadline", "max_attempts": "MaxAttempts", "owner": "Owner",
	"result": "Result", "reason": "Reason",
}

func (c *goCall) rowField(f FieldCheck) {
	switch f.Key {
	case "token", "lease_until", "attempt", "attempts", "qty", "deadline", "max_attempts":
		c.want("Int", f.Key, "j."+rowFields[f.Key], f.Want)
	case "status":
		c.want("String", "status", "string(j.Status)", goQuote(f.Want))
	default: // owner, result, reason
		c.want("String", f.Key, "j."+rowFields[f.Key], goQuote(none(f.Want)))
	}
}

func (c *goCall) receiptFields(fs []FieldCheck) {
	if len(fs) == 0 {
		return
	}
	c.check("if !r.ok {")
	c.check("\tt.Errorf(\"line %s: nothing reached the receiver, want %s\")", c.ln, fieldsWanted(fs))
	c.check("} else {")
	for _, f := range fs {
		switch f.Key {
		case "delivered":
			c.want("Bool", f.Key, "r.delivered", f.Want)
		case "total":
			c.want("Int", f.Key, "r.total", f.Want)
		case "receipt.qty":
			c.want("Int", f.Key, "r.kept.Qty", f.Want)
		case "receipt.token":
			c.want("Int", f.Key, "r.kept.Token", f.Want)
		default:
			c.want("String", f.Key, "r.kept.Owner", goQuote(none(f.Want)))
		}
		c.g.Checks[len(c.g.Checks)-1] = "\t" + c.g.Checks[len(c.g.Checks)-1]
	}
	c.check("}")
}

func (c *goCall) storedFields(fs []FieldCheck) {
	if len(fs) == 0 {
		return
	}
	c.check("if v == nil {")
	c.check("\tt.Errorf(\"line %s: nothing is stored, want %s\")", c.ln, fieldsWanted(fs))
	c.check("} else {")
	for _, f := range fs {
		switch f.Key {
		case "storage.token":
			c.want("Int", f.Key, "v.Token", f.Want)
		case "storage.owner":
			c.want("String", f.Key, "v.Owner", goQuote(none(f.Want)))
		default:
			c.want("String", f.Key, "v.Value", goQuote(f.Want))
		}
		c.g.Checks[len(c.g.Checks)-1] = "\t" + c.g.Checks[len(c.g.Checks)-1]
	}
	c.check("}")
}

func fieldsWanted(fs []FieldCheck) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, f.Key+"="+f.Want)
	}
	return strings.ReplaceAll(strings.Join(parts, " "), `"`, `\"`)
}

func (c *goCall) contenders() string {
	q := make([]string, len(c.s.Actors))
	for i, a := range c.s.Actors {
		q[i] = goQuote(a)
	}
	return strings.Join(q, ", ")
}

// none is an expectation's "none" (no owner, winner or reason) as the
// engine stores it.
func none(s string) string {
	if s == "none" {
		return ""
	}
	return s
}
