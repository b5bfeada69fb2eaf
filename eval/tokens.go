package eval

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// scanChunks calls fn for every chunk of text: a maximal run of characters that are not
// spaces, quotes, brackets or the punctuation that separates code tokens (, ; | * < > and
// backticks). call reports whether "(" follows the chunk directly, as in a call or a
// signature; "request(s)" does not count.
func scanChunks(text string, fn func(chunk string, call bool)) {
	start := -1
	for i := 0; i < len(text); {
		c := text[i]
		size := 1
		delim := false
		if c < utf8.RuneSelf {
			delim = asciiDelim[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			delim = unicode.IsSpace(r) || strings.ContainsRune("‘’“”«»„", r)
		}
		if delim {
			if start >= 0 {
				fn(text[start:i], c == '(' && !pluralParen(text[i:]))
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		fn(text[start:], false)
	}
}

var asciiDelim = func() (d [utf8.RuneSelf]bool) {
	for _, c := range " \t\n\r\v\f'\"`()[]{}<>,;|*\\!^" {
		d[c] = true
	}
	return d
}()

// pluralParen reports whether s starts with "(s)", "(es)" or "(ies)".
func pluralParen(s string) bool {
	return strings.HasPrefix(s, "(s)") || strings.HasPrefix(s, "(es)") || strings.HasPrefix(s, "(ies)")
}

// trimChunk removes the sentence punctuation around a chunk, a trailing ":12" or
// ":12:3" location and a "#L12" anchor.
func trimChunk(c string) string {
	c = trimSentencePunct(c)
	for c != "" && c[0] == ':' {
		c = c[1:]
	}
	if j := strings.Index(c, "#L"); j > 0 {
		c = c[:j]
	}
	for k := 0; k < 2; k++ {
		j := strings.LastIndexByte(c, ':')
		if j <= 0 || j == len(c)-1 || !allDigits(c[j+1:]) {
			break
		}
		c = c[:j]
	}
	return trimSentencePunct(c)
}

// trimSentencePunct is strings.TrimRight(c, ".,:;!?") without building the cutset's set
// at every call.
func trimSentencePunct(c string) string {
	for c != "" && sentencePunct[c[len(c)-1]] {
		c = c[:len(c)-1]
	}
	return c
}

var sentencePunct = func() (set [256]bool) {
	for _, c := range []byte(".,:;!?") {
		set[c] = true
	}
	return set
}()

// pathKey returns the normalized path in c when c looks like a path: lowercase, without a
// leading "./" or a trailing "/". c looks like a path when it holds only path characters
// and a letter, and either names a file (a known extension or file name), starts with
// "/", "./", "../" or "~/", has three or more components, or ends with "/"; "and/or",
// "I/O" and "1/2" do not. lenient (a value of a tool's path argument) accepts any
// relative path with a letter.
func pathKey(c string, lenient bool) (string, bool) {
	key, sure, ok := pathCandidate(c, lenient)
	return key, ok && sure
}

// pathCandidate is pathKey that also returns the two-component paths ("src/app") it does
// not trust on their own: sure is false for them. They count as occurrences of a path
// that is written in a surer form elsewhere.
func pathCandidate(c string, lenient bool) (key string, sure, ok bool) {
	if c == "" || strings.HasPrefix(c, "//") || !pathChars(c) {
		return "", false, false
	}
	dir := strings.HasSuffix(c, "/")
	p := strings.TrimRight(c, "/")
	p = strings.TrimPrefix(p, "./")
	if p == "" || p == "." || p == ".." || p == "~" {
		return "", false, false
	}
	if noisePaths[p] || strings.HasSuffix(p, "-") || strings.HasSuffix(p, "_") {
		// A name cut short (agent-*.jsonl cut at the glob, session-{date}.md at the
		// brace, a path wrapped by the terminal) names no file a summary can hold.
		return "", false, false
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	ok = false
	switch {
	case lenient, isFileName(base):
		ok = true
	case !strings.Contains(p, "/"):
		ok = dir && len(p) >= 2
	case strings.HasPrefix(c, "/"), strings.HasPrefix(c, "./"), strings.HasPrefix(c, "../"), strings.HasPrefix(c, "~/"):
		ok = len(p) >= 3
	default:
		ok = dir || strings.Count(p, "/") >= 2
		if !ok && strings.Count(p, "/") == 1 && !strings.HasPrefix(p, "/") && !strings.HasSuffix(p, "/") || ok && !dir && wordList(p) {
			// src/app, save/load/delete, Develop/Explore/Synthesize: only an occurrence of a
			// path written in a surer form elsewhere.
			return strings.ToLower(p), false, true
		}
	}
	if !ok {
		return "", false, false
	}
	return strings.ToLower(p), true, true
}

// wordList reports whether p is slash-separated alternatives rather than a path: every
// component a word of letters only, and either all of them capitalized
// (Develop/Explore/Synthesize, POST/PUT/PATCH) or, lowercase, none of them a usual folder
// name (save/load/delete, but not packages/auth/src or config/crd/bases).
func wordList(p string) bool {
	parts := strings.Split(p, "/")
	capitalized, folder := true, false
	for _, part := range parts {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			if !isLetter(part[i]) {
				return false
			}
		}
		capitalized = capitalized && isUpper(part[0])
		folder = folder || folderNames[strings.ToLower(part)]
	}
	return capitalized || !folder
}

// folderNames are folder names that make a slash-separated run of words a path.
var folderNames = set(
	"src", "lib", "libs", "app", "apps", "packages", "pkg", "internal", "cmd", "test", "tests",
	"spec", "config", "configs", "bin", "docs", "doc", "scripts", "build", "dist", "target",
	"components", "pages", "api", "server", "client", "web", "public", "static", "assets",
	"vendor", "node_modules", "migrations", "db", "deploy", "infra", "tools", "examples",
	"include", "modules", "services", "handlers", "models", "views", "routes", "utils",
	"release", "debug", "bases", "crates", "core", "common", "shared", "fixtures", "testdata",
	"home", "usr", "etc", "var", "opt", "tmp", "charts", "templates", "hooks", "middleware",
)

func pathChars(c string) bool {
	letter := false
	for i := 0; i < len(c); i++ {
		b := c[i]
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z':
			letter = true
		case b >= '0' && b <= '9', b == '_', b == '-', b == '.', b == '/', b == '~', b == '@', b == '+', b == '%':
		default:
			return false
		}
	}
	return letter
}

// isFileName reports whether base names a file: a known file name, a dotfile from the
// list, or a name with a known extension after a non-empty stem.
func isFileName(base string) bool {
	lower := strings.ToLower(base)
	if fileNames[lower] {
		return true
	}
	j := strings.LastIndexByte(lower, '.')
	if j <= 0 || j == len(lower)-1 {
		return false
	}
	ext := lower[j+1:]
	if len(ext) == 1 && j < 2 { // "a.m", "e.g": a one-letter extension needs a real stem
		return false
	}
	return extensions[ext]
}

// noisePaths are paths every shell session names; they say nothing about a conversation.
var noisePaths = set("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/tmp", "/usr/bin/env", "~", "/")

var fileNames = set(
	"makefile", "dockerfile", "gemfile", "rakefile", "procfile", "jenkinsfile", "vagrantfile",
	"justfile", "brewfile", "podfile", "cmakelists.txt", "license", "readme", "codeowners",
	".env", ".gitignore", ".dockerignore", ".npmrc", ".bashrc", ".zshrc", ".profile",
	".editorconfig", ".prettierrc", ".eslintrc", ".babelrc", ".nvmrc", ".gitattributes",
	".gitmodules", ".env.local", ".env.example", ".env.production", ".htaccess",
)

var extensions = set(
	"go", "py", "pyi", "ts", "tsx", "js", "jsx", "mjs", "cjs", "rs", "java", "kt", "kts", "rb",
	"php", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "fs", "swift", "m", "mm", "sh",
	"bash", "zsh", "fish", "ps1", "bat", "yaml", "yml", "json", "jsonl", "json5", "toml", "ini",
	"cfg", "conf", "env", "properties", "md", "mdx", "rst", "txt", "adoc", "sql", "html", "htm",
	"css", "scss", "sass", "less", "xml", "xsd", "proto", "graphql", "gql", "gradle", "tf",
	"tfvars", "hcl", "nix", "ex", "exs", "eex", "heex", "erl", "hrl", "hs", "ml", "mli", "lua",
	"dart", "vue", "svelte", "astro", "lock", "mod", "sum", "log", "csv", "tsv", "ipynb", "r",
	"jl", "scala", "sbt", "clj", "cljs", "sol", "zig", "nim", "pl", "pm", "rake", "erb",
	"haml", "slim", "twig", "jinja", "j2", "tmpl", "tpl", "cmake", "mk", "dockerfile", "service",
	"plist", "pbxproj", "xcconfig", "csproj", "sln", "vcxproj", "pom", "bzl", "bazel", "star",
	"wasm", "so", "dylib", "dll", "a", "o", "jar", "war", "whl", "gz", "tgz", "zip", "tar",
	"png", "jpg", "jpeg", "gif", "svg", "ico", "webp", "pdf", "pem", "crt", "key", "pub",
	"db", "sqlite", "sqlite3", "parquet", "patch", "diff", "prisma", "ejs", "hbs", "liquid",
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

type ident struct {
	key   string // lowercase
	alt   string // the last dotted part, lowercase, when shaped on its own
	plain bool   // no shape of its own: only a call or a definition made it one
}

// identifier reports whether c is an identifier with a shape: snake_case (an underscore
// and a letter), camelCase or PascalCase with an inner capital (HTTPServer counts), a
// dotted or :: qualified name (os.ReadFile, std::vector), or a name of three or more
// characters written as a call or signature (run( when call is set). Plain words, version
// numbers and e.g. are not.
func identifier(c string, call bool) (ident, bool) {
	if strings.HasPrefix(c, "REDACTED") {
		return ident{}, false // an anonymizer's marker (REDACTED_EMAIL), no name of the conversation
	}
	parts := splitQualified(c)
	if parts == nil {
		return ident{}, false
	}
	if len(parts) >= 2 {
		longest := 0
		for _, p := range parts {
			longest = max(longest, len(p))
		}
		if len(c) < 5 || longest < 3 {
			return ident{}, false
		}
		id := ident{key: strings.ToLower(c)}
		if last := parts[len(parts)-1]; len(last) >= 4 && shaped(last) {
			id.alt = strings.ToLower(last)
		}
		return id, true
	}
	if len(c) >= 4 && shaped(c) && !commonTypes[c] {
		return ident{key: strings.ToLower(c)}, true
	}
	lower := strings.ToLower(c)
	if call && len(c) >= 3 && !stopwords[lower] && !keywords[lower] {
		return ident{key: lower, plain: true}, true
	}
	return ident{}, false
}

// splitQualified splits c at "." and "::" and returns nil unless every part is a name:
// a letter, "_" or "$", then letters, digits, "_" or "$".
func splitQualified(c string) []string {
	var parts []string
	for c != "" {
		j := strings.IndexAny(c, ".:")
		part := c
		if j >= 0 {
			part = c[:j]
			if c[j] == ':' {
				if !strings.HasPrefix(c[j:], "::") {
					return nil
				}
				c = c[j+2:]
			} else {
				c = c[j+1:]
			}
			if c == "" {
				return nil
			}
		} else {
			c = ""
		}
		if !isName(part) {
			return nil
		}
		parts = append(parts, part)
	}
	return parts
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b == '_', b == '$':
		case b >= '0' && b <= '9':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// shaped reports whether a name has a shape of its own: an underscore next to a letter
// somewhere in it, or an inner capital.
func shaped(s string) bool {
	letters := 0
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) {
			letters++
		}
	}
	if letters == 0 {
		return false
	}
	if strings.Contains(strings.Trim(s, "_"), "_") || strings.HasPrefix(s, "__") && letters >= 3 {
		return true
	}
	for i := 0; i+1 < len(s); i++ {
		if isLower(s[i]) && isUpper(s[i+1]) {
			return true
		}
		if i > 0 && i+3 < len(s) && isUpper(s[i]) && isUpper(s[i+1]) && isLower(s[i+2]) && isLower(s[i+3]) {
			return true // HTTPServer, JSONDecoder; not URLs or PUTs
		}
	}
	return false
}

func isLower(b byte) bool  { return b >= 'a' && b <= 'z' }
func isUpper(b byte) bool  { return b >= 'A' && b <= 'Z' }
func isLetter(b byte) bool { return isLower(b) || isUpper(b) }
func isDigit(b byte) bool  { return b >= '0' && b <= '9' }

// keywords are words that take "(" in code without naming anything.
var keywords = set(
	"if", "for", "while", "switch", "return", "function", "func", "def", "catch", "elif",
	"sizeof", "typeof", "new", "super", "self", "this", "await", "async", "lambda", "match",
	"case", "try", "except", "with", "not", "and", "assert", "print", "len", "int", "str",
	"string", "bool", "float", "list", "dict", "set", "map", "make", "append", "require",
	"import", "export", "from", "select", "where", "values", "insert", "update", "delete",
	"count", "sum", "min", "max", "var", "let", "const", "go", "defer", "type", "main",
	"del", "exit", "open", "range", "repr", "isinstance", "super", "elif", "foreach", "when",
)

// commonTypes are shaped names that every C program uses; they say nothing about a
// conversation.
var commonTypes = set(
	"uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t", "int32_t", "int64_t",
	"size_t", "ssize_t", "uintptr_t", "intptr_t", "ptrdiff_t", "off_t", "pid_t", "__init__",
	"__name__", "__main__", "__file__",
)

// normText is the form texts are compared in: lowercase, without quotes, backticks and
// asterisks, whitespace collapsed to single spaces.
func normText(s string) string {
	if isNormText(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	writeNormText(&b, s)
	return b.String()
}

// isNormText reports whether normText(s) is s: ASCII without capitals, quotes, backticks,
// asterisks or whitespace other than single spaces between other characters. Most words
// of a summary are, and returning them saves a copy.
func isNormText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, isUpper(c), c == '`', c == '"', c == '\'', c == '*',
			c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' '):
			return false
		}
	}
	return true
}

// writeNormText writes normText(s) to b.
func writeNormText(b *strings.Builder, s string) {
	start := b.Len()
	space := false
	for i := 0; i < len(s); i++ { // ASCII a byte at a time, the rest a rune at a time
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size - 1
			switch {
			case unicode.IsSpace(r):
				space = b.Len() > start
				continue
			case r == '‘' || r == '’' || r == '“' || r == '”':
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			space = b.Len() > start
			continue
		case '`', '"', '\'', '*':
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
}

// asciiLower lowercases the ASCII letters of s only, so that byte offsets in the result
// are offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if isUpper(c) {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// contentWords returns the distinct content words of s in order, at most n: runs of
// letters and digits of four or more characters that are not stop words, lowercased and
// stemmed.
func contentWords(s string, n int) []string {
	var out []string
	seen := map[string]bool{}
	eachWord(s, func(w string) bool {
		if seen[w] {
			return true
		}
		seen[w] = true
		out = append(out, w)
		return len(out) < n
	})
	return out
}

// eachWord calls fn with each stemmed content word of s until fn returns false.
func eachWord(s string, fn func(string) bool) {
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && (isLetter(s[i]) || isDigit(s[i])) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := s[start:i]
			start = -1
			if len(w) < 4 || len(w) > 40 {
				continue
			}
			w = strings.ToLower(w)
			if stopwords[w] || allDigits(w) { // w is not empty: all digits is Trim(w, digits) == ""
				continue
			}
			if !fn(stem(w)) {
				return
			}
		}
	}
}

// stem removes one common English suffix, so that "timeouts", "timed" and "timing" and
// "timeout", "time" compare equal where the rest keeps four letters.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 4 {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

var stopwords = set(
	"about", "above", "after", "again", "against", "also", "although", "always", "another",
	"anything", "around", "because", "been", "before", "being", "below", "best", "better",
	"between", "both", "bring", "call", "came", "cannot", "come", "could", "didn", "does",
	"doesn", "doing", "done", "down", "during", "each", "either", "else", "enough", "even",
	"ever", "every", "everything", "fine", "first", "from", "further", "gets", "getting",
	"give", "goes", "going", "gone", "good", "great", "have", "haven", "having", "hello",
	"here", "hers", "himself", "into", "isn", "itself", "just", "keep", "kind", "know", "last",
	"let", "lets", "like", "look", "looks", "made", "make", "makes", "many", "maybe", "might",
	"mine", "more", "most", "much", "must", "myself", "need", "needs", "never", "next", "nice",
	"none", "nothing", "okay", "once", "only", "other", "others", "ours", "over", "please",
	"pretty", "quite", "rather", "really", "right", "said", "same", "says", "seem", "seems",
	"should", "shouldn", "show", "since", "some", "something", "soon", "still", "such",
	"sure", "take", "tell", "than", "thank", "thanks", "that", "their", "theirs", "them",
	"themselves", "then", "there", "these", "they", "thing", "things", "think", "this",
	"those", "though", "through", "till", "together", "told", "too", "tried", "under",
	"until", "upon", "very", "want", "wants", "wasn", "well", "went", "were", "weren", "what",
	"whatever", "when", "where", "whether", "which", "while", "will", "with", "within",
	"without", "won", "work", "would", "wouldn", "yeah", "your", "yours", "yourself", "again",
	"able", "actually", "already", "anyway", "away", "back", "sorry", "stuff", "thought",
	"used", "using", "via", "ways", "yes", "instead", "don't", "it's", "i'm", "let's", "hmm",
)
