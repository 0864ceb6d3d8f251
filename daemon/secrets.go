package daemon

import (
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// ownerSecrets is the owner's vault as sessions read it. Each secret's
// value joins the values no URL the browser opens may carry as it is
// handed to a fill (the vault may have changed since buddi started).
type ownerSecrets struct {
	vault *secret.Vault
	known *egress.Known
	fixed []string // the owner's other secrets the guard knows (the Telegram bot token)
}

func (s *ownerSecrets) List() ([]messages.SecretInfo, error) { return s.vault.List() }

func (s *ownerSecrets) Secret(name string) ([]string, string, error) {
	o, err := s.vault.Get(name)
	if err != nil {
		return nil, "", err
	}
	s.teach()
	return o.Origins, o.Value, nil
}

func (s *ownerSecrets) Values() []string { return s.vault.Values() }

// Add stores a secret from the dashboard; the guard learns its value at once.
func (s *ownerSecrets) Add(name string, origins []string, value string) error {
	if err := s.vault.Add(secret.Owned{Name: name, Origins: origins, Value: value}); err != nil {
		return err
	}
	s.teach()
	return nil
}

// Remove forgets a secret; the guard stops looking for its value.
func (s *ownerSecrets) Remove(name string) error {
	if err := s.vault.Remove(name); err != nil {
		return err
	}
	s.teach()
	return nil
}

// teach gives the guard the owner's values as the vault holds them now,
// with the other secrets it always knows.
func (s *ownerSecrets) teach() {
	s.known.SetOwner(append(append([]string(nil), s.fixed...), s.vault.Values()...))
}
