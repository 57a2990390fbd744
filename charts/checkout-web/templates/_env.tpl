{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "checkout-web.env" -}}
{{ include "sika-lib.envVar" (dict "name" "PAYMENTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "payments"))) }}
{{- end -}}
