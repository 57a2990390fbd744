{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{/* Test mode uses the release's simulator unless pispi.test.baseUrl names another participant. */}}
{{- define "psp-connector.testModeUsesSimulator" -}}
{{- if and (not .Values.pispi.test.baseUrl) (dig "testMode" "enabled" true (.Values.global | default dict)) -}}
true
{{- end -}}
{{- end -}}

{{- define "psp-connector.testBaseUrl" -}}
{{- if .Values.pispi.test.baseUrl -}}
{{- .Values.pispi.test.baseUrl -}}
{{- else if include "psp-connector.testModeUsesSimulator" . -}}
{{- printf "http://%s" (include "sika-lib.peerAddress" (dict "root" . "peer" "pispi-simulator")) -}}
{{- else -}}
{{- fail "pispi.test.baseUrl is required when global.testMode.enabled is false (there is no simulator to talk to)" -}}
{{- end -}}
{{- end -}}

{{- define "psp-connector.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "DATABASE_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "AMQP_URL") }}
{{ include "sika-lib.envVar" (dict "name" "PSP_CALLBACK_PUBLIC_URL" "value" (.Values.pispi.callbackPublicUrl | default (include "sika-lib.ingressUrl" .) | default (printf "http://%s:%s" (include "sika-lib.fullname" .) (toString .Values.ports.http)))) }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_TEST_BASE_URL" "value" (include "psp-connector.testBaseUrl" .)) }}
{{- with .Values.pispi.test.tokenUrl }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_TEST_TOKEN_URL" "value" .) }}
{{- end }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_TEST_PAYEE_ALIAS" "value" .Values.pispi.test.payeeAlias) }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PISPI_TEST_CLIENT_ID") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PISPI_TEST_CLIENT_SECRET") }}
{{- if .Values.pispi.live.enabled }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_LIVE_BASE_URL" "value" (required "pispi.live.baseUrl is required when pispi.live.enabled" .Values.pispi.live.baseUrl)) }}
{{- with .Values.pispi.live.tokenUrl }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_LIVE_TOKEN_URL" "value" .) }}
{{- end }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_LIVE_PAYEE_ALIAS" "value" (required "pispi.live.payeeAlias is required when pispi.live.enabled" .Values.pispi.live.payeeAlias)) }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PISPI_LIVE_CLIENT_ID") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PISPI_LIVE_CLIENT_SECRET") }}
{{- end }}
{{- end -}}
