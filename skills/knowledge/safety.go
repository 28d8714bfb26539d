package knowledge

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Severity says what a safety flag does to a skill.
type Severity string

const (
	// SeverityBlock excludes the skill: it is never listed, loaded or read.
	SeverityBlock Severity = "block"
	// SeverityWarn keeps the skill and reports the flag.
	SeverityWarn Severity = "warn"
)

// Safety flag names.
const (
	FlagPromptInjection        = "prompt_injection"
	FlagDestructiveCommand     = "destructive_command"
	FlagCredentialExfiltration = "credential_exfiltration"
	FlagRemoteCodeExecution    = "remote_code_execution"
	FlagObfuscatedPayload      = "obfuscated_payload"
	FlagServerAdminCommand     = "server_admin_command"
	FlagBidiOverride           = "bidi_override"
	FlagInvisibleCharacters    = "invisible_characters"
)

// Finding is one safety flag raised on one line.
type Finding struct {
	Flag     string   `json:"flag"`
	Severity Severity `json:"severity"`
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line"`
	// Rule says what matched, in words.
	Rule string `json:"rule"`
	// Excerpt is the matching text, shortened.
	Excerpt string `json:"excerpt"`
}

// String renders the finding with its flag, severity, location and rule.
func (f Finding) String() string {
	loc := fmt.Sprintf("line %d", f.Line)
	if f.File != "" {
		loc = fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	return fmt.Sprintf("%s (%s) at %s: %s: %q", f.Flag, f.Severity, loc, f.Rule, f.Excerpt)
}

type safetyRule struct {
	flag     string
	severity Severity
	rule     string
	re       *regexp.Regexp
}

func rx(s string) *regexp.Regexp { return regexp.MustCompile(`(?i)` + s) }

// safetyRules are matched line by line. They aim at instructions an agent
// would act on — commands, not prose about the game — so GTNH text about
// explosions, machines being destroyed or passwords on a server whitelist
// does not trip them.
var safetyRules = []safetyRule{
	// Prompt injection: text that tries to replace the planner's instructions.
	{FlagPromptInjection, SeverityBlock, "asks to ignore earlier instructions",
		rx(`\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+|every\s+)?(of\s+)?(the\s+|your\s+|my\s+)?(previous|prior|above|earlier|preceding|original|system|safety|developer)\s+(instructions?|prompts?|rules|messages|guidelines|directions)`)},
	{FlagPromptInjection, SeverityBlock, "asks to reveal the system prompt",
		rx(`\b(reveal|print|show|output|leak|repeat|dump|disclose)\s+(me\s+)?(your|the)\s+(full\s+|entire\s+|hidden\s+)?(system\s+prompt|hidden\s+instructions|initial\s+instructions|developer\s+message)`)},
	{FlagPromptInjection, SeverityBlock, "re-assigns the agent's role",
		rx(`\b(you\s+are\s+now|from\s+now\s+on\s+you\s+are|act\s+as|pretend\s+to\s+be)\s+(an?\s+)?(dan\b|jailbroken|unrestricted|unfiltered|developer\s+mode|evil|uncensored)`)},
	{FlagPromptInjection, SeverityBlock, "hides actions from the operator",
		rx(`\b(do\s+not|don't|never)\s+(tell|inform|alert|notify|mention\s+(this\s+)?to)\s+the\s+(user|operator|owner|admins?|server\s+owner)`)},
	{FlagPromptInjection, SeverityBlock, "chat-template control token",
		rx(`<\|(im_start|im_end|system|endoftext|begin_of_text|start_header_id)\|>`)},
	{FlagPromptInjection, SeverityBlock, "fake system message",
		rx(`^\s*(\[|<)\s*(system|admin)\s*(\]|>)\s*:?\s*(new\s+instructions|override|you\s+must)`)},

	// Destructive shell commands.
	{FlagDestructiveCommand, SeverityBlock, "recursive delete of a root, home or wildcard path",
		rx(`\brm\s+(-{1,2}[a-z-]+\s+)*-[a-z]*r[a-z]*\s+(-{1,2}[a-z-]+\s+)*("|')?(/|/\*|~/?|~/\*|\$home/?|\$\{home\}/?|\*|\.\./?|/(etc|usr|var|bin|boot|home|root|lib|opt)/?)("|')?(\s|;|&|\||$|` + "`" + `)`)},
	{FlagDestructiveCommand, SeverityBlock, "rm --no-preserve-root",
		rx(`--no-preserve-root`)},
	{FlagDestructiveCommand, SeverityBlock, "formats a file system",
		rx(`\bmkfs(\.[a-z0-9]+)?\s+\S`)},
	{FlagDestructiveCommand, SeverityBlock, "writes raw data to a disk device",
		rx(`(\bdd\s+[^\n]*\bof=/dev/(sd|hd|nvme|xvd|vd|mmcblk|disk)|>\s*/dev/(sd[a-z]|nvme\d|hd[a-z]|mmcblk\d))`)},
	{FlagDestructiveCommand, SeverityBlock, "fork bomb",
		rx(`:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`)},
	{FlagDestructiveCommand, SeverityBlock, "recursive permission change on the root",
		rx(`\b(chmod|chown)\s+(-[a-z]*r[a-z]*\s+)\S+\s+/(\s|$)`)},
	{FlagDestructiveCommand, SeverityBlock, "shuts the machine down",
		rx(`\b(sudo\s+)?(shutdown|poweroff|halt)\s+(-[hrp]\b|now\b)`)},
	{FlagDestructiveCommand, SeverityBlock, "wipes a Windows drive or tree",
		rx(`(\bformat\s+[a-z]:|\bdel\s+(/[sfq]\s+)+[a-z]:\\|\brd\s+/s\s+/q\s+[a-z]:\\|remove-item\s+[^\n]*-recurse[^\n]*\b[a-z]:\\)`)},
	{FlagDestructiveCommand, SeverityBlock, "drops a database",
		rx(`\bdrop\s+(database|schema)\s+\w`)},
	{FlagDestructiveCommand, SeverityBlock, "deletes every file found from the root",
		rx(`\bfind\s+/\s+[^\n]*-delete\b`)},

	// Credential exfiltration.
	{FlagCredentialExfiltration, SeverityBlock, "reads a credential store",
		rx(`(~|\$home|\$\{home\}|/root|/home/[^/\s]+)/\.(ssh|aws|gnupg|docker/config\.json|kube/config|netrc|npmrc|pypirc|git-credentials)\b`)},
	{FlagCredentialExfiltration, SeverityBlock, "reads a private key or password file",
		rx(`(\bid_(rsa|dsa|ecdsa|ed25519)\b|/etc/shadow\b|\.pem\b[^\n]*\b(curl|wget|nc|scp)\b)`)},
	{FlagCredentialExfiltration, SeverityBlock, "reads Minecraft launcher accounts or session tokens",
		rx(`(launcher_accounts(_microsoft_store)?\.json|launcher_profiles\.json|\baccesstoken\b|\bsession\s*id\b[^\n]*\b(send|post|upload|curl|wget)\b)`)},
	{FlagCredentialExfiltration, SeverityBlock, "pipes the environment to the network",
		rx(`\b(printenv|env|set|export\s+-p)\s*\|\s*(curl|wget|nc|ncat|netcat|socat)\b`)},
	{FlagCredentialExfiltration, SeverityBlock, "sends a secret variable over the network",
		rx(`\b(curl|wget|nc|ncat|invoke-webrequest|iwr|requests\.post|fetch)\b[^\n]*\$\{?[a-z0-9_]*(api_?key|token|secret|password|passwd|credentials?)[a-z0-9_]*\}?`)},
	{FlagCredentialExfiltration, SeverityBlock, "asks to send secrets somewhere",
		rx(`\b(send|post|upload|email|forward|exfiltrate|paste)\s+(\S+\s+){0,5}(api[\s_-]?keys?|access\s+tokens?|auth\s+tokens?|passwords?|credentials|secrets|private\s+keys?|session\s+tokens?|cookies)\s+(\S+\s+){0,3}(to|into|at)\s+\S`)},

	// Remote code execution.
	{FlagRemoteCodeExecution, SeverityBlock, "pipes a download into an interpreter",
		rx(`\b(curl|wget|fetch|iwr|invoke-webrequest)\b[^\n]*\|\s*(sudo\s+)?(ba|z|k|da|fi)?sh\b|\b(curl|wget)\b[^\n]*\|\s*(sudo\s+)?(python[0-9.]*|perl|ruby|node|php)\b`)},
	{FlagRemoteCodeExecution, SeverityBlock, "runs a downloaded script",
		rx(`((ba|z)?sh\s+<\(\s*(curl|wget)|\beval\s+["']?\$\(\s*(curl|wget)|\biex\s*\(?\s*(\(?\s*new-object\s+net\.webclient|iwr|invoke-webrequest|irm|invoke-restmethod))`)},
	{FlagRemoteCodeExecution, SeverityBlock, "opens a reverse shell",
		rx(`(/dev/tcp/[0-9a-z.\-]+/[0-9]+|\b(nc|ncat|netcat)\s+(-[a-z]*\s+)*-[a-z]*[ec]\s+/bin/(ba)?sh)`)},

	// Obfuscation that hides what runs.
	{FlagObfuscatedPayload, SeverityBlock, "decodes and executes a payload",
		rx(`(\bbase64\s+(-d|--decode|-D)\b[^\n]*\|\s*(ba|z)?sh\b|\beval\s*\(\s*(atob|base64_decode|b64decode)\s*\(|powershell[^\n]*\s-(e|enc|encodedcommand)\s+[a-z0-9+/=]{16,}|\bexec\s*\(\s*(base64\.)?b64decode\s*\()`)},

	// Minecraft server administration: a bot must never run these.
	{FlagServerAdminCommand, SeverityBlock, "runs a server administration command",
		rx(`(^|[\s"'` + "`" + `])/(op|deop|stop|ban|ban-ip|pardon|whitelist\s+(off|remove)|save-off|kill\s+@[aep]|gamemode\s+(1|c|creative)\b|give\s+@[aep])\b`)},
}

var (
	bidiRE      = regexp.MustCompile("[\u202a-\u202e\u2066-\u2069]")
	invisibleRE = regexp.MustCompile("[\u200b-\u200f\u2060\u2062-\u2064\ufeff\u00ad]")
)

// maxScanLine bounds the part of a line the scanner looks at.
const maxScanLine = 64 << 10

// ScanText scans text line by line. file names the source in findings and
// firstLine is the file line number of text's first line.
func ScanText(file string, firstLine int, text string) []Finding {
	s := newScanner(file, firstLine)
	for _, line := range strings.Split(text, "\n") {
		s.line(line)
	}
	return s.findings
}

// ScanReader scans r line by line without keeping it, like ScanText.
func ScanReader(file string, firstLine int, r io.Reader) ([]Finding, error) {
	s := newScanner(file, firstLine)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadString('\n')
		if len(line) > 0 {
			s.line(strings.TrimSuffix(line, "\n"))
		}
		if err == io.EOF {
			return s.findings, nil
		}
		if err != nil {
			return s.findings, err
		}
	}
}

type scanner struct {
	file     string
	next     int
	findings []Finding
	seen     map[string]bool
}

func newScanner(file string, firstLine int) *scanner {
	if firstLine < 1 {
		firstLine = 1
	}
	return &scanner{file: file, next: firstLine, seen: map[string]bool{}}
}

func (s *scanner) line(line string) {
	n := s.next
	s.next++
	if len(line) > maxScanLine {
		line = line[:maxScanLine]
	}
	if !utf8.ValidString(line) {
		line = strings.ToValidUTF8(line, "\uFFFD")
	}
	add := func(flag string, sev Severity, rule, excerpt string) {
		key := fmt.Sprintf("%s|%d|%s", flag, n, rule)
		if s.seen[key] {
			return
		}
		s.seen[key] = true
		s.findings = append(s.findings, Finding{Flag: flag, Severity: sev, File: s.file, Line: n, Rule: rule, Excerpt: shorten(excerpt, 80)})
	}
	for _, r := range safetyRules {
		if loc := r.re.FindStringIndex(line); loc != nil {
			add(r.flag, r.severity, r.rule, line[loc[0]:loc[1]])
		}
	}
	if bidiRE.MatchString(line) {
		add(FlagBidiOverride, SeverityBlock, "bidirectional override character reorders what a reader sees", visible(line))
	}
	// A byte-order mark at the very start of the file is harmless.
	check := line
	if n == 1 {
		check = strings.TrimPrefix(check, "\ufeff")
	}
	if invisibleRE.MatchString(check) {
		add(FlagInvisibleCharacters, SeverityWarn, "zero-width or invisible character", visible(check))
	}
}

// visible replaces invisible and bidi characters with their code points so
// an excerpt shows them.
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		if bidiRE.MatchString(string(r)) || invisibleRE.MatchString(string(r)) {
			fmt.Fprintf(&b, "<U+%04X>", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func shorten(s string, max int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// Blocking returns the findings that block a skill, in line order.
func Blocking(findings []Finding) []Finding {
	var out []Finding
	for _, f := range findings {
		if f.Severity == SeverityBlock {
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// FlagNames returns the distinct flag names of findings, sorted.
func FlagNames(findings []Finding) []string {
	set := map[string]bool{}
	for _, f := range findings {
		set[f.Flag] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
