package ledger

// Typed reads of the records the rest of buddi needs.

// Stop returns the global Stop.
func (s *Store) Stop() (Stop, error) {
	var v Stop
	_, err := s.Get(StopKey(), &v)
	return v, err
}

// Owner returns the owner record; found is false before first start.
func (s *Store) Owner() (Owner, bool, error) {
	var v Owner
	ok, err := s.Get(OwnerKey(), &v)
	return v, ok, err
}

// Agents lists every agent.
func (s *Store) Agents() ([]Agent, error) { return List[Agent](s, prefixAgent) }

// Tasks lists every task.
func (s *Store) Tasks() ([]Task, error) { return List[Task](s, prefixTask) }

// Sessions lists every session record.
func (s *Store) Sessions() ([]Session, error) { return List[Session](s, prefixSession) }

// Task returns one conversation's task.
func (s *Store) Task(conv string) (Task, bool, error) {
	var v Task
	ok, err := s.Get(TaskKey(conv), &v)
	return v, ok, err
}

// Session returns one conversation's session record.
func (s *Store) Session(conv string) (Session, bool, error) {
	var v Session
	ok, err := s.Get(SessionKey(conv), &v)
	return v, ok, err
}

// SiteOnce returns every conversation's once-approved sites.
func (s *Store) SiteOnce() ([]SiteOnce, error) { return List[SiteOnce](s, prefixApproval) }

// Refusals lists the air-gap refusal record, oldest first.
func (s *Store) Refusals() ([]Refusal, error) { return List[Refusal](s, prefixRefusal) }

// AirGap returns the air-gap setting buddi last started with.
func (s *Store) AirGap() (AirGap, error) {
	var v AirGap
	_, err := s.Get(AirGapKey(), &v)
	return v, err
}

// Steps returns one conversation's step counter (zero when none).
func (s *Store) Steps(conv string) (Steps, error) {
	var v Steps
	_, err := s.Get(StepsKey(conv), &v)
	return v, err
}

// Devices lists the signed-in dashboard devices.
func (s *Store) Devices() ([]Device, error) { return List[Device](s, prefixDevice) }

// Telegram is the paired chat, if any.
func (s *Store) Telegram() (Telegram, bool, error) {
	var t Telegram
	found, err := s.Get(TelegramKey(), &t)
	return t, found, err
}

// Bound lists the conversations bound to the paired chat.
func (s *Store) Bound() ([]Bound, error) { return List[Bound](s, prefixBound) }

// Moved lists the conversations that moved to a new id.
func (s *Store) Moved() ([]Moved, error) { return List[Moved](s, prefixMoved) }

// Desktop returns the desktop lock as last written (zero when never).
func (s *Store) Desktop() (Desktop, error) {
	var v Desktop
	_, err := s.Get(DesktopKey(), &v)
	return v, err
}

// AppAnswers lists the owner's per-conversation answers about apps.
func (s *Store) AppAnswers() ([]AppAnswer, error) { return List[AppAnswer](s, prefixApp) }
