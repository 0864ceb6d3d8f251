package messages

import "fmt"

// SecretInfo is one of the owner's own secrets as agents and lists see it:
// its name and the origins it may be typed into, never its value.
type SecretInfo struct {
	Name    string   `json:"name"`
	Origins []string `json:"origins"`
}

// SecretList answers secret_list: the owner's secrets by name and origins.
type SecretList struct {
	Secrets []SecretInfo `json:"secrets"`
	// Text says how to use them, in one sentence.
	Text string `json:"text"`
}

func (*SecretList) answer() {}

// MaxSecretName bounds secret_fill's secret name.
const MaxSecretName = 64

func checkSecretFill(in *ActInput) error {
	if in.Secret == "" || len(in.Secret) > MaxSecretName {
		return badInput("secret_fill needs \"secret\", the name of one of the owner's secrets that secret_list gives")
	}
	if in.Value != "" {
		return badInput("secret_fill types the owner's secret itself; leave out \"value\"")
	}
	return needTarget(in)
}

// SecretOrigin is the refusal of a secret_fill into field, on a page of
// origin, which is not one of origins, the secret's.
func SecretOrigin(field, origin string, origins []string) *Error {
	return CodeSecretOrigin.Err(field, origin, Words(origins, "or"))
}

// SecretsText is the sentence beside secret_list's answer.
func SecretsText(n int) string {
	if n == 0 {
		return "The owner keeps no secrets for agents; ask them to take over and sign in themselves."
	}
	if n == 1 {
		return "1 secret; fill it with secret_fill, a target and its name, on a page of one of its origins."
	}
	return fmt.Sprintf("%d secrets; fill one with secret_fill, a target and its name, on a page of one of its origins.", n)
}
