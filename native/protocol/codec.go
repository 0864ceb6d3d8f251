package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// EncodeRequest marshals a valid request within MaxRequestBytes.
func EncodeRequest(r *Request) ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, Errorf(CodeBadRequest, "The request could not be encoded.").WithDetail(err)
	}
	if len(b) > MaxRequestBytes {
		return nil, Errorf(CodeBadRequest, "The request is larger than %d bytes; send a shorter value.", MaxRequestBytes)
	}
	return b, nil
}

// DecodeRequest reads a request as a helper must: within MaxRequestBytes,
// exactly one JSON object with no unknown fields, and valid.
func DecodeRequest(data []byte) (*Request, error) {
	if len(data) > MaxRequestBytes {
		return nil, Errorf(CodeBadRequest, "The request is larger than %d bytes.", MaxRequestBytes)
	}
	var r Request
	if err := decodeStrict(data, &r); err != nil {
		return nil, Errorf(CodeBadRequest, "The request is not valid JSON of the expected shape.").WithDetail(err)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}

// EncodeResponse marshals a helper's answer. An answer that would not fit in
// MaxResponseBytes becomes a helper_failed error, so a helper never writes
// more than the client reads.
func EncodeResponse(r *Response) []byte {
	r.V = Version
	b, err := json.Marshal(r)
	if err == nil && len(b) <= MaxResponseBytes {
		return b
	}
	e := Errorf(CodeHelperFailed, "The helper's answer was too large to send; observe a smaller window.")
	if err != nil {
		e = Errorf(CodeHelperFailed, "The helper could not encode its answer.").WithDetail(err)
	}
	b, _ = json.Marshal(&Response{V: Version, Error: e})
	return b
}

// DecodeResponse reads a helper's answer to call c as untrusted bytes:
// within MaxResponseBytes, exactly one JSON object with no unknown fields,
// of this protocol version, carrying an error or the call's own result,
// every field within its limits. A refusal the helper sent comes back as
// the Response's Error, not as err; err is an *Error with
// CodeHelperOversized, CodeHelperMalformed or CodeUnsupportedVersion.
func DecodeResponse(c Call, data []byte) (*Response, error) {
	if len(data) > MaxResponseBytes {
		return nil, Errorf(CodeHelperOversized, "The helper's answer is larger than %d bytes; observe a smaller window or report the helper.", MaxResponseBytes)
	}
	var r Response
	if err := decodeStrict(data, &r); err != nil {
		return nil, malformed(err.Error())
	}
	if r.V != Version {
		return nil, Errorf(CodeUnsupportedVersion, "The helper speaks protocol version %d and buddi %d; install the helper that came with this buddi.", r.V, Version)
	}
	if p := r.validate(c); p != "" {
		return nil, malformed(p)
	}
	return &r, nil
}

func malformed(detail string) *Error {
	return &Error{Code: CodeHelperMalformed, Message: "The helper's answer was not a valid response; nothing more was done, try again and report the helper if it persists.",
		Detail: Clean(detail, MaxDetailRunes)}
}

// decodeStrict decodes exactly one JSON object into v.
func decodeStrict(data []byte, v any) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("data after the JSON object")
	}
	return nil
}
