package shared

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// TaskSteps is how many steps a conversation's task has used. Task names
// the task by its creation time, so the count of an earlier task of the
// same conversation is never taken for a new one's.
type TaskSteps struct {
	Task time.Time `json:"task"`
	Used int       `json:"used"`
}

// PutSteps writes conv's steps while etcd names member as holding conv
// (ErrNotHome otherwise): a member that lost the conversation to another
// cannot lower the count the new holder continues from. The caller writes
// a count only ever larger for one task.
func (s *Store) PutSteps(ctx context.Context, conv, member string, st TaskSteps) error {
	v, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("shared: encode the steps of %s: %w", conv, err)
	}
	_, err = s.PutAsHome(ctx, Steps, conv, member, v)
	return err
}

// StepsOf is how many steps the task of conv created at task has used:
// zero when none was written for that task. A record that does not decode,
// is not signed with the cluster's secret (ErrForged), is older than one
// this member has seen, or was seen and is gone (ErrReplayed), is an
// error: the budget is not known, so the task must not go on with a
// fresh one.
func (s *Store) StepsOf(ctx context.Context, conv string, task time.Time) (int, error) {
	rec, ok, err := s.getSigned(ctx, Steps, conv)
	if err != nil {
		return 0, err
	}
	if !ok {
		key, _ := s.recordKey(Steps, conv)
		if s.gens.newest(key) > 0 {
			// a count this member saw is gone: steps are never removed
			// by a member, so it was deleted past the cluster's secret
			return 0, fmt.Errorf("shared: the steps of %s were in etcd and are gone: %w", conv, ErrReplayed)
		}
		return 0, nil
	}
	var st TaskSteps
	if err := json.Unmarshal(rec.Value, &st); err != nil {
		return 0, fmt.Errorf("shared: the steps of %s in etcd do not decode: %w", conv, err)
	}
	if !st.Task.Equal(task) {
		return 0, nil
	}
	return st.Used, nil
}
