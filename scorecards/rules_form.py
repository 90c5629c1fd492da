"""The rules of a season, a game or a tournament night chosen in words: a preset by its name, then
every setting of the engine's catalogue with its label, help and range. The engine validates; its
message is shown on the setting it names.

Field names are the engine's own (`preset`, `min_bid`, `cover_three`, ...), so a form that embeds
this one must not use them; `<setting>_none` is the "none" box of a setting that may be null, and
`overrides` the advanced JSON box.

A blank setting means "as the preset"; the stored rules are the preset plus the settings that
differ from it (`RulesForm.record()`), as a kaiser-game/1 record writes them.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from kaiser_league.inputs import WholeNumberField
from kaiser_league.json_read import JsonRefused, json_read
from scorecards.rules import KaiserError, Rules, rules_build
from scorecards.rules.catalogue import (
    GROUPS,
    Setting,
    group_labels,
    presets_catalogue,
    rules_changes,
    setting_value_text,
    settings_catalogue,
)

MAX_OVERRIDES = 2000  # characters of the advanced JSON box
# Far beyond any setting's range (the engine's are within 1,000): only a backstop.
RULES_NUMBER_BOUND = 1_000_000
ON, OFF = "on", "off"
NONE_SUFFIX = "_none"


def rules_record(rules: Rules) -> dict[str, Any]:
    """`rules` as a record stores them: the preset and the settings that differ from it."""
    return {"preset": rules.preset, **rules_changes(rules)}


class RulesForm(forms.Form):
    """One rules form for seasons, games and nights.

    `base` is where the form starts (a season's rules, a record's `rules` object); a bound form
    reads only its data. After `is_valid()`, `cleaned_data["rules"]` is the engine's `Rules`
    and `record()` the object to store.
    """

    preset = forms.ChoiceField(label=gettext_lazy("Rules"))
    overrides = forms.CharField(
        label=gettext_lazy("Settings as JSON (advanced)"),
        required=False,
        max_length=MAX_OVERRIDES,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": '{"min_bid": 6, "target": 62}'}),
        help_text=gettext_lazy('Written {"setting": value, ...}; the boxes above win over it.'),
    )

    def __init__(self, data=None, *, base: dict[str, Any] | None = None, **kwargs) -> None:
        base = dict(base or {"preset": "standard"})
        initial = {"preset": base.get("preset", "standard")}
        for key, value in base.items():
            if key != "preset":
                initial.update(self._initial_for(key, value))
        prefix = kwargs.get("prefix")
        name = f"{prefix}-preset" if prefix else "preset"
        if data is not None and name not in data:
            # A post that leaves the rules out (a client other than the form) keeps the base.
            data = data.copy()
            for key, value in initial.items():
                field_name = f"{prefix}-{key}" if prefix else key
                if field_name not in data:
                    data[field_name] = "on" if value is True else str(value)
        super().__init__(data, initial=initial, **kwargs)
        self.presets = presets_catalogue()
        preset = self.fields["preset"]
        assert isinstance(preset, forms.ChoiceField)
        preset.choices = [
            (preset.key, f"{preset.name} — {preset.description}") for preset in self.presets
        ]
        self.catalogue = settings_catalogue()
        shown = self._shown_preset()
        try:
            preset_rules = rules_build({"preset": shown})
        except KaiserError:
            preset_rules = Rules()
        for setting in self.catalogue:
            self._add_field(setting, getattr(preset_rules, setting.key))

    @staticmethod
    def _initial_for(key: str, value: Any) -> dict[str, Any]:
        if isinstance(value, bool):
            return {key: ON if value else OFF}
        if value is None:
            return {key + NONE_SUFFIX: True}
        return {key: value}

    def _shown_preset(self) -> str:
        if self.is_bound:
            return str(self.data.get(self.add_prefix("preset")) or "standard")
        return str(self.initial.get("preset") or "standard")

    def _add_field(self, setting: Setting, preset_value: Any) -> None:
        as_preset = _("As the preset (%(value)s)") % {
            "value": setting_value_text(setting.key, preset_value)
        }
        help_text = setting.help
        if setting.kind == "bool":
            field: forms.Field = forms.ChoiceField(
                choices=[("", as_preset), (ON, _("on")), (OFF, _("off"))], required=False
            )
        elif setting.kind == "choice":
            field = forms.ChoiceField(choices=[("", as_preset), *setting.choices], required=False)
        else:
            attrs: dict[str, Any] = {"placeholder": as_preset, "inputmode": "numeric"}
            if setting.minimum is not None:
                attrs["min"] = setting.minimum
            if setting.maximum is not None:
                attrs["max"] = setting.maximum
            # ASCII digits only, read by the one number reader. The bounds here are only a
            # backstop: the engine refuses an out-of-range value in its own words.
            field = WholeNumberField(
                min_value=-RULES_NUMBER_BOUND,
                max_value=RULES_NUMBER_BOUND,
                required=False,
                widget=forms.NumberInput(attrs=attrs),
            )
            # The setting's own range for the browser, not the backstop's.
            for name in ("min", "max"):
                field.widget.attrs.pop(name, None)
                if name in attrs:
                    field.widget.attrs[name] = attrs[name]
            if setting.minimum is not None and setting.maximum is not None:
                help_text = _("%(help)s From %(minimum)s to %(maximum)s.") % {
                    "help": help_text,
                    "minimum": setting.minimum,
                    "maximum": setting.maximum,
                }
        field.label = setting.label
        field.help_text = help_text
        self.fields[setting.key] = field
        if setting.kind == "optional_int":
            self.fields[setting.key + NONE_SUFFIX] = forms.BooleanField(
                label=_("%(setting)s: none") % {"setting": setting.label}, required=False
            )

    def groups(self) -> list[dict[str, Any]]:
        """The settings' bound fields by section, for the template (label, fields)."""
        labels = group_labels()
        out = []
        for group in GROUPS:
            rows = []
            for setting in self.catalogue:
                if setting.group != group:
                    continue
                none = self.fields.get(setting.key + NONE_SUFFIX)
                rows.append(
                    {
                        "field": self[setting.key],
                        "none": self[setting.key + NONE_SUFFIX] if none is not None else None,
                    }
                )
            out.append({"label": labels[group], "rows": rows})
        return out

    def preset_description(self) -> str:
        shown = self._shown_preset()
        return next((p.description for p in self.presets if p.key == shown), "")

    def has_changes(self) -> bool:
        """Whether any setting is chosen (the settings section opens then)."""
        source = self.data if self.is_bound else self.initial
        return any(
            source.get(self.add_prefix(name) if self.is_bound else name) not in (None, "", False)
            for name in self.fields
            if name != "preset"
        ) or bool(self.errors)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if "preset" not in data:
            return data
        values: dict[str, Any] = {}
        raw = (data.get("overrides") or "").strip()
        if raw:
            try:
                overrides = json_read(raw)
            except JsonRefused:
                overrides = None
            if not isinstance(overrides, dict):
                self.add_error("overrides", _('Write the changes as {"setting": value, ...}.'))
                return data
            values.update({key: value for key, value in overrides.items() if key != "preset"})
        for setting in self.catalogue:
            key = setting.key
            if data.get(key + NONE_SUFFIX):
                values[key] = None
                continue
            value = data.get(key)
            if value in (None, ""):
                continue
            if setting.kind == "bool":
                values[key] = value == ON
            else:
                values[key] = value
        try:
            data["rules"] = rules_build({"preset": data["preset"], **values})
        except KaiserError as error:
            named = getattr(error, "setting", None)  # a RulesError names its setting
            field: str | None = named if named in self.fields else None
            if field is None and raw:
                field = "overrides"
            self.add_error(field, error.message if field else str(error))
        return data

    def record(self) -> dict[str, Any]:
        """The chosen rules as stored: the preset and the settings that differ from it."""
        return rules_record(self.cleaned_data["rules"])

    def rules_or(self, fallback: Rules) -> Rules:
        """The chosen rules when valid, else `fallback` (so a page with errors still shows)."""
        if self.is_valid():
            return self.cleaned_data["rules"]
        return fallback
