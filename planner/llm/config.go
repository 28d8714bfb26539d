package llm

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
)

// DefaultKeyEnv is the environment variable holding the API key when the
// configuration names no other.
const DefaultKeyEnv = "GTNH_AGENT_LLM_KEY"

// Defaults for the bounds of a step.
const (
	DefaultTimeout        = 2 * time.Minute
	DefaultMaxCalls       = 8
	DefaultMaxCorrections = 3
	// DefaultContext is the model's context length in tokens when the
	// configuration names none: Ollama's own default is smaller (it cuts
	// longer prompts silently), so set the server's and this one alike.
	DefaultContext = 8192
	// MinContext and MaxContext bound the context length accepted.
	MinContext = 1024
	MaxContext = 1 << 21
)

// Mode is how the planner asks the model for a decision.
type Mode string

const (
	// ModeAuto uses tool calls and switches to ModeJSON for the rest of the
	// run when the server rejects them.
	ModeAuto Mode = "auto"
	// ModeTools offers the tools (load_skill, read_skill_resource,
	// invoke_skill, finish) as function tools.
	ModeTools Mode = "tools"
	// ModeJSON asks for one JSON object per answer through response_format
	// (a JSON Schema), for servers without tool calling.
	ModeJSON Mode = "json"
)

// Modes lists the valid modes.
var Modes = []string{string(ModeAuto), string(ModeTools), string(ModeJSON)}

// Config is the model client's configuration: agent.yaml's llm section and
// the --llm-* flags.
type Config struct {
	// URL is the OpenAI-compatible API's base URL, with its /v1
	// (http://127.0.0.1:11434/v1 for Ollama).
	URL string
	// Model is the chat model's name on that server.
	Model string
	// KeyEnv names the environment variable holding the API key (default
	// GTNH_AGENT_LLM_KEY). The key itself never goes in a file or a flag.
	KeyEnv string
	// EmbeddingModel is the model for /v1/embeddings ("" = none).
	EmbeddingModel string
	// Timeout bounds one model call, its retries and the waits between
	// them included (default 2m).
	Timeout time.Duration
	// MaxCalls bounds the model calls of one step, retries included
	// (default 8).
	MaxCalls int
	// MaxCorrections bounds the answers sent back for correction in one
	// step (default 3, 1..20); one more and the step is a planner error.
	MaxCorrections int
	// Mode is auto (default), tools or json.
	Mode Mode
	// Context is the model's context length in tokens (default 8192): the
	// prompt of a step is made to fit it (see PromptBudget), and a server
	// reporting more prompt tokens than this is warned about.
	Context int
	// System replaces the built-in instructions at the head of the system
	// prompt ("" = the built-in ones); the catalog and the observation
	// still follow. Read it from a file with ReadSystemFile.
	System string
}

// WithDefaults returns the configuration with every unset field defaulted.
func (c Config) WithDefaults() Config {
	if c.KeyEnv == "" {
		c.KeyEnv = DefaultKeyEnv
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxCalls == 0 {
		c.MaxCalls = DefaultMaxCalls
	}
	if c.MaxCorrections == 0 {
		c.MaxCorrections = DefaultMaxCorrections
	}
	if c.Mode == "" {
		c.Mode = ModeAuto
	}
	if c.Context == 0 {
		c.Context = DefaultContext
	}
	return c
}

// envName is what a shell accepts as a variable name.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Validate reports every problem with the configuration, naming the field.
func (c Config) Validate() error {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if c.URL == "" {
		add("url: missing (e.g. http://127.0.0.1:11434/v1)")
	} else if err := CheckURL(c.URL); err != nil {
		add("url: %v", err)
	}
	if strings.TrimSpace(c.Model) == "" {
		add("model: missing (e.g. qwen3)")
	}
	if c.KeyEnv != "" && !envName.MatchString(c.KeyEnv) {
		// The value is not echoed: it may be the key itself.
		add("key_env: want the name of an environment variable such as %s, not the key", DefaultKeyEnv)
	}
	if c.Timeout < 0 {
		add("timeout: must be positive, got %v", c.Timeout)
	}
	if c.MaxCalls < 0 || c.MaxCalls > 100 {
		add("max_calls: must be within 1..100, got %d", c.MaxCalls)
	}
	if c.MaxCorrections < 0 || c.MaxCorrections > 20 {
		add("max_corrections: must be within 1..20, got %d", c.MaxCorrections)
	}
	if c.Context != 0 && (c.Context < MinContext || c.Context > MaxContext) {
		add("context: must be within %d..%d tokens, got %d", MinContext, MaxContext, c.Context)
	}
	if len(c.System) > MaxSystemBytes {
		add("system: %d bytes, more than %d", len(c.System), MaxSystemBytes)
	}
	switch c.Mode {
	case "", ModeAuto, ModeTools, ModeJSON:
	default:
		add("mode: %q is not one of %s", c.Mode, strings.Join(Modes, ", "))
	}
	if len(problems) > 0 {
		return fmt.Errorf("llm: %s", strings.Join(problems, "; "))
	}
	return nil
}

// CheckURL checks a base URL: http or https, a host, no query, no
// credentials (the key comes from the environment).
func CheckURL(raw string) error {
	if !strings.HasPrefix(raw, "http://") && !strings.HasPrefix(raw, "https://") {
		return fmt.Errorf("want http:// or https://, e.g. http://127.0.0.1:11434/v1")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("not a valid URL")
	}
	if u.Host == "" {
		return fmt.Errorf("no host in %q", raw)
	}
	if u.User != nil {
		return fmt.Errorf("credentials in the URL are not accepted: put the key in an environment variable (key_env)")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("no query or fragment, got %q", raw)
	}
	return nil
}

// MaxSystemBytes bounds a system prompt read from a file (--llm-system):
// it is sent with every model call, so it must leave room in the context.
const MaxSystemBytes = 16 << 10

// ReadSystemFile reads a replacement for the built-in instructions: UTF-8
// text of at most MaxSystemBytes, not blank.
func ReadSystemFile(file string) (string, error) {
	data, err := filelimit.ReadFile(file, MaxSystemBytes)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(data) {
		return "", fmt.Errorf("%s: not UTF-8 text", file)
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", fmt.Errorf("%s: empty: write the instructions the model reads before the skill catalog", file)
	}
	return string(data), nil
}
