"""readings_for: kana readings and Hepburn romaji of titles (table of cases)."""

from __future__ import annotations

import pytest

from manga_app.catalogue.readings import Readings, readings_for


@pytest.mark.parametrize(
    ("text", "hiragana", "katakana", "romaji"),
    [
        ("進撃の巨人", "しんげきのきょじん", "シンゲキノキョジン", "shingeki no kyojin"),
        ("ワンピース", "わんぴーす", "ワンピース", "wanpiisu"),
        ("ONE PIECE", "わんぴーす", "ワンピース", "wanpiisu"),  # the analyser knows the title as a word
        ("ﾁｪﾝｿｰﾏﾝ", "ちぇんそーまん", "チェンソーマン", "chensooman"),
        ("", "", "", ""),
    ],
)
def test_a_title_gets_hiragana_katakana_and_lower_case_romaji(text, hiragana, katakana, romaji):
    # Given a title, when its readings are generated
    readings = readings_for(text)
    # Then each form is what a visitor would type
    assert readings == Readings(hiragana=hiragana, katakana=katakana, romaji=romaji)


def test_romaji_separates_words_with_single_spaces_and_is_ascii_lower_case():
    readings = readings_for("鋼の錬金術師　ＦＵＬＬＭＥＴＡＬ")
    assert "  " not in readings.romaji
    assert readings.romaji == readings.romaji.lower()
    assert readings.romaji.startswith("hagane no renkinjutsushi")
    assert readings.romaji.endswith("fullmetal")


def test_full_width_latin_is_folded_before_conversion():
    assert readings_for("ＳＰＹ×ＦＡＭＩＬＹ").romaji == readings_for("SPY×FAMILY").romaji


@pytest.mark.parametrize(
    ("text", "hiragana"),
    [
        # words read in context, as a visitor would type them
        ("魔王城経理課のタイムカード", "まおうじょうけいりかのたいむかーど"),
        ("君とスカイラインを", "きみとすかいらいんを"),
        ("宇宙港のパン屋さん", "うちゅうこうのぱんやさん"),
        ("忍者は在宅勤務中", "にんじゃはざいたくきんむちゅう"),
        ("千年後の教室", "せんねんごのきょうしつ"),
        ("ゼンマイ仕掛けの終着駅", "ぜんまいじかけのしゅうちゃくえき"),
        ("鋼の錬金術師", "はがねのれんきんじゅつし"),
        ("引き出しの中の王国", "ひきだしのなかのおうこく"),
        ("聲の形", "こえのかたち"),  # an old form of 声
    ],
)
def test_titles_are_read_in_context(text, hiragana):
    assert readings_for(text).hiragana == hiragana


def test_a_compound_the_dictionary_reads_two_ways_keeps_the_other_reading_in_the_katakana_form():
    readings = readings_for("雪見横丁の甘味処")
    assert readings.hiragana == "ゆきみよこちょうのかんみどころ"
    assert readings.katakana == "ユキミヨコチョウノアマミドコロ"
    assert readings_for("進撃の巨人").katakana == "シンゲキノキョジン"  # one reading: plain katakana


@pytest.mark.parametrize(
    ("text", "hiragana", "romaji"),
    [
        # compounds read as the dictionary reads them, not part by part
        ("灯台守と渡り鳥", "とうだいもりとわたりどり", "toudaimori to wataridori"),
        ("雪見横丁の甘味処", "ゆきみよこちょうのかんみどころ", "yukimiyokochou no kanmidokoro"),
        ("はじめの一歩", "はじめのいっぽ", "hajime no ippo"),
        # numbers read as numbers, with the counter after them
        ("3月のライオン", "さんがつのらいおん", "sangatsu no raion"),
        ("三月のライオン", "さんがつのらいおん", "sangatsu no raion"),
        ("怪獣8号", "かいじゅうはちごう", "kaijuu hachigou"),
        ("らんま1/2", "らんまにぶんのいち", "ranma nibunnoichi"),
        ("300年", "さんびゃくねん", "sanbyakunen"),
        # symbols kept as written, left out of romaji
        ("らき☆すた", "らき☆すた", "ra ki suta"),
    ],
)
def test_compounds_and_numbers_are_read_as_a_japanese_reader_reads_them(text, hiragana, romaji):
    readings = readings_for(text)
    assert (readings.hiragana, readings.romaji) == (hiragana, romaji)


@pytest.mark.parametrize(
    ("text", "romaji"),
    [
        ("忍者は在宅勤務中", "ninja wa zaitakukinmuchuu"),  # the particle は is said "wa"
        ("家へ帰る", "ie e kaeru"),
        ("魔王城経理課のタイムカード", "maoujoukeirika no taimukaado"),
    ],
)
def test_romaji_is_spoken_hepburn_with_compounds_kept_whole(text, romaji):
    assert readings_for(text).romaji == romaji


@pytest.mark.parametrize(
    ("text", "hiragana"),
    [
        # sequential voicing: a native (kun) one-kanji noun right after a noun
        ("ドラゴン桜", "どらごんざくら"),
        ("あかね噺", "あかねばなし"),
        ("3年奇面組", "さんねんきめんぐみ"),
        ("夜の桜", "よるのさくら"),  # after a particle: no compound, no voicing
        ("ドラゴン鍵", "どらごんかぎ"),  # Lyman's law: かぎ already has a voiced sound
        ("転生したらスライムだった件", "てんせいしたらすらいむだったけん"),  # 件 けん is Sino-Japanese: never voiced
        # a common dictionary word over the analyser's rarer reading, and pronouns
        ("無職転生", "むしょくてんせい"),
        ("私の旅", "わたしのたび"),
        ("きのう何食べた?", "きのうなにたべた?"),
        # a number's sound before its counter
        ("20世紀少年", "にじゅっせいきしょうねん"),
        ("1本", "いっぽん"),
        ("10巻", "じゅっかん"),
        ("100回", "ひゃっかい"),
        ("6歳", "ろくさい"),  # ろく shortens only before か and は rows
        ("1話", "いちわ"),
    ],
)
def test_voicing_dictionary_words_and_numbers_before_counters(text, hiragana):
    assert readings_for(text).hiragana == hiragana


def test_a_voiced_reading_keeps_the_plain_one_searchable():
    assert readings_for("ドラゴン桜")[:2] == ("どらごんざくら", "ドラゴンサクラ")


def test_a_name_the_name_dictionary_knows_is_read_as_it_says_the_analysers_reading_kept():
    # JMnedict lists 永井豪 as a person read ながいごう; the analyser reads つよし.
    assert readings_for("永井豪", name=True)[:2] == ("ながいごう", "ナガイツヨシ")
    assert readings_for("永井豪").hiragana == "ながいつよし"  # as a title: no person's name
    assert readings_for("綾瀬つむぎ", name=True).hiragana == "あやせつむぎ"  # unknown to it: generated


def test_a_title_the_name_dictionary_knows_as_a_work_is_read_as_it_says():
    assert readings_for("南総里見八犬伝").hiragana == "なんそうさとみはっけんでん"  # the analyser: はちけんでん
