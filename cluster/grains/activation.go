package grains

import (
	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// activation is one grain's actor: it makes the caller's actor from the
// producer on its first message, once the cluster has told it its
// identity, and hands it every message after.
type activation struct {
	produce Producer
	inner   actor.Actor
}

func (a *activation) Receive(ctx actor.Context) {
	if a.inner == nil {
		a.inner = a.produce(cluster.GetClusterIdentity(ctx).Identity)
	}
	a.inner.Receive(ctx)
}

// props are a session grain's: decode what arrives, encode what leaves
// for another member.
func props(produce Producer, types *Registry) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &activation{produce: produce} },
		actor.WithReceiverMiddleware(decoding(types)),
		actor.WithSenderMiddleware(encoding(types)))
}

// decoding hands the actor the typed message inside an envelope; one that
// does not decode is answered with a Failure and never reaches the actor.
func decoding(types *Registry) actor.ReceiverMiddleware {
	return func(next actor.ReceiverFunc) actor.ReceiverFunc {
		return func(c actor.ReceiverContext, env *actor.MessageEnvelope) {
			wire, ok := env.Message.(*wrapperspb.BytesValue)
			if !ok {
				next(c, env)
				return
			}
			msg, err := types.decode(wire)
			if err != nil {
				if env.Sender != nil {
					answer, _ := types.encode(failureOf(err)) // a Failure always encodes
					c.ActorSystem().Root.Send(env.Sender, answer)
				}
				return
			}
			next(c, &actor.MessageEnvelope{Header: env.Header, Message: msg, Sender: env.Sender})
		}
	}
}

// encoding wraps a message sent to another member's actor (a reply to a
// caller there, most often); local sends stay typed, protobuf messages go
// as they are. A message that is not registered, or does not encode, is
// replaced by a Failure saying so, which the remote can carry.
func encoding(types *Registry) actor.SenderMiddleware {
	return func(next actor.SenderFunc) actor.SenderFunc {
		return func(c actor.SenderContext, target *actor.PID, env *actor.MessageEnvelope) {
			if target == nil || target.Address == c.ActorSystem().Address() {
				next(c, target, env)
				return
			}
			inner := env
			if e, ok := env.Message.(*actor.MessageEnvelope); ok {
				inner = e
			}
			if _, ok := inner.Message.(proto.Message); ok {
				next(c, target, env) // the remote serializes it as it is
				return
			}
			wire, err := types.encode(inner.Message)
			if err != nil {
				// would be dropped by the remote: answer why instead
				wire, _ = types.encode(failureOf(err))
			}
			next(c, target, &actor.MessageEnvelope{Header: inner.Header, Message: wire, Sender: inner.Sender})
		}
	}
}
