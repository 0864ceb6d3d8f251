package playwright

// Shrink exposes the screenshot scaler to the black-box tests.
func Shrink(raw []byte, edge int) ([]byte, int, int, error) {
	s, err := shrink(raw, edge)
	if err != nil {
		return nil, 0, 0, err
	}
	return s.jpeg, s.width, s.height, nil
}

// WritePrefs exposes the profile preferences writer to the fuzz test.
var WritePrefs = writePrefs
