"""The invented demo catalogue, kept as plain data.

Every title, pen name, publisher and summary below is original and was made
up for this project, so the demo library can be shipped and screenshotted
without any copyright question. Keeping the catalogue as data (rather than
generating names randomly) makes the demo site look curated and lets tests
reason about the whole library without rendering a single image.

Order matters: ``generate_demo_library(series_count=N)`` takes the first N
entries, so the first six are deliberately small yet varied (a webtoon, a
spread-bearing series, a decimal chapter, a one-shot) to keep tests fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "BUCKETS",
    "CATALOGUE",
    "CHAPTER_TITLES",
    "SOUND_EFFECTS",
    "SPEECH_LINES",
    "TAGS",
    "SeriesDef",
]

Status = Literal["ongoing", "completed"]
Style = Literal["manga", "webtoon"]

# Relative-time buckets the site can display (see manga_app.core.display
# ``relative_time_ja``), newest first. Each series names the bucket its
# latest chapter falls into; the schedule module turns that into a date.
BUCKETS: tuple[str, ...] = (
    "just_now",  # たった今
    "minutes",  # N分前
    "hours",  # N時間前
    "days",  # N日前
    "weeks",  # N週間前
    "last_month",  # 先月
    "months",  # Nヶ月前
    "last_year",  # 昨年
    "one_year",  # 1年前
    "two_plus",  # 2年以上前
)


# Tags come from one small shared vocabulary, so that a tag links several
# series together (our importer even lists tags next to genres).
TAGS: tuple[str, ...] = (
    "異世界", "魔法", "ロボット", "部活", "お仕事", "料理", "動物", "青春", "怪異", "江戸",
    "近未来", "宇宙", "縦読み", "読み切り", "バディ", "お店", "季節", "音楽", "旅",
)


@dataclass(frozen=True)
class SeriesDef:
    """One invented series.

    ``chapters`` counts regular, integer-numbered chapters (1..chapters);
    ``extras`` adds decimal side chapters such as ``"10.5"`` on top of them.
    ``latest`` is a key of :data:`BUCKETS`; ``cadence_days`` is the typical
    gap between two chapters. ``artist`` defaults to the writer.
    """

    key: str
    title: str
    romaji: str
    writer: str
    genres: tuple[str, ...]
    tags: tuple[str, ...]
    summary: str
    status: Status
    chapters: int
    latest: str
    cadence_days: int
    publisher: str
    nickname: str | None = None
    artist: str | None = None
    extras: tuple[str, ...] = ()
    style: Style = "manga"
    spreads: bool = False
    age_rating: str | None = None

    @property
    def penciller(self) -> str:
        return self.artist or self.writer

    @property
    def chapter_total(self) -> int:
        return self.chapters + len(self.extras)


_KOMOREBI = "こもれび書房"
_SEIRAN = "青嵐コミックス"
_HOSHIAKARI = "ほしあかり社"
_TOUDAI = "灯台舎"
_YUUNAGI = "ゆうなぎ出版"

CATALOGUE: tuple[SeriesDef, ...] = (
    # --- the first six are small on purpose (used by the unit tests) ------
    SeriesDef(
        key="hoshifuru",
        title="星降る街の配達人",
        romaji="Hoshifuru Machi no Haitatsunin",
        nickname="ほしはい",
        writer="綾瀬つむぎ",
        genres=("ファンタジー", "日常"),
        tags=("魔法", "お仕事"),
        summary="夜空から星のかけらが降る港町で、見習い配達人のリコは今日も荷物を届ける。"
        "宛先不明の小包が、町に眠る古い約束を呼び覚ます。",
        status="ongoing",
        chapters=4,
        extras=("2.5",),
        latest="just_now",
        cadence_days=7,
        publisher=_KOMOREBI,
        spreads=True,
    ),
    SeriesDef(
        key="koutetsu",
        title="鋼鉄のアトリエ",
        romaji="Steel Atelier",
        nickname="鋼アト",
        writer="鷹野ミナト",
        artist="朝比奈ゴロー",
        genres=("SF", "アクション"),
        tags=("ロボット", "お仕事"),
        summary="廃墟となった工業都市で、少女技師ハガネは壊れた巨大機兵を一から組み直す。"
        "鉄と油にまみれた工房から、街の反撃が始まる。",
        status="ongoing",
        chapters=3,
        latest="minutes",
        cadence_days=14,
        publisher=_SEIRAN,
        spreads=True,
    ),
    SeriesDef(
        key="nekomachi",
        title="ねこまち日和",
        romaji="Nekomachi Biyori",
        writer="小日向こはる",
        genres=("日常", "コメディ"),
        tags=("動物", "お店"),
        summary="猫が町長を務める小さな商店街の、なんでもない毎日。"
        "今日もどこかで誰かが猫に振り回されている。",
        status="completed",
        chapters=5,
        latest="last_year",
        cadence_days=30,
        publisher=_HOSHIAKARI,
        age_rating="Everyone",
    ),
    SeriesDef(
        key="okujou",
        title="屋上農園ガールズ",
        romaji="Rooftop Farm Girls",
        nickname="屋上ガールズ",
        writer="菜の花ぽぽ",
        genres=("学園", "日常", "コメディ"),
        tags=("部活", "青春", "縦読み"),
        summary="廃部寸前の園芸部が目をつけたのは、立入禁止の校舎屋上だった。"
        "トマトとスイカと友情を育てる、縦スクロール青春コメディ。",
        status="ongoing",
        chapters=1,
        latest="hours",
        cadence_days=7,
        publisher=_YUUNAGI,
        style="webtoon",
    ),
    SeriesDef(
        key="amaoto",
        title="雨音探偵事務所",
        romaji="Amaoto Detective Agency",
        writer="時雨沢レイ",
        genres=("ミステリー",),
        tags=("お仕事", "季節"),
        summary="雨の日にしか開かない探偵事務所には、雨の日にしか解けない謎が持ち込まれる。"
        "所長の傘の下で、小さな嘘がほどけていく。",
        status="completed",
        chapters=2,
        latest="two_plus",
        cadence_days=30,
        publisher=_TOUDAI,
    ),
    SeriesDef(
        key="curry",
        title="最後の晩餐はカレーで",
        romaji="Curry for the Last Supper",
        writer="火野まめ",
        genres=("グルメ", "日常"),
        tags=("料理", "お店", "読み切り"),
        summary="地球最後の日、小さな食堂の店主は常連客のためにいつものカレーを煮込む。読み切り短編。",
        status="completed",
        chapters=1,
        latest="one_year",
        cadence_days=30,
        publisher=_KOMOREBI,
    ),
    # --- the rest of the library -------------------------------------------
    SeriesDef(
        key="yaoya",
        title="八百屋の勇者",
        romaji="Yaoya no Yuusha",
        nickname="やおゆう",
        writer="青葉しげる",
        genres=("ファンタジー", "コメディ", "アクション"),
        tags=("異世界", "魔法", "お店"),
        summary="勇者として召喚されたのは、商店街の八百屋の息子だった。"
        "大根で魔物を倒し、キャベツで王国を救う、青果系ファンタジー。",
        status="ongoing",
        chapters=28,
        extras=("10.5", "20.5"),
        latest="hours",
        cadence_days=7,
        publisher=_SEIRAN,
        spreads=True,
    ),
    SeriesDef(
        key="kagekui",
        title="影喰いの森",
        romaji="Forest of the Shadow Eaters",
        writer="黒須あやめ",
        genres=("ホラー", "ファンタジー"),
        tags=("怪異", "縦読み"),
        summary="影を食べる獣が棲むという森で、少年は自分の影をなくした。"
        "影を取り戻すまでの七日間、森の夜は終わらない。",
        status="ongoing",
        chapters=6,
        latest="weeks",
        cadence_days=7,
        publisher=_YUUNAGI,
        style="webtoon",
        age_rating="Teen",
    ),
    SeriesDef(
        key="rocket",
        title="放課後ロケット同好会",
        romaji="After-School Rocket Club",
        nickname="ロケ同",
        writer="宙野はるか",
        genres=("学園", "SF", "コメディ"),
        tags=("部活", "青春", "宇宙"),
        summary="部員三人の同好会が目指すのは、"
        "文化祭までに本物のロケットを飛ばすこと。校長の許可は、まだない。",
        status="ongoing",
        chapters=10,
        extras=("5.5",),
        latest="days",
        cadence_days=14,
        publisher=_HOSHIAKARI,
        spreads=True,
    ),
    SeriesDef(
        key="makanai",
        title="深夜二時のまかない帖",
        romaji="Midnight Staff Meals",
        writer="灯町ゆずる",
        genres=("グルメ", "日常"),
        tags=("料理", "お店", "お仕事"),
        summary="終電を逃した人だけがたどり着く小さな居酒屋。"
        "閉店後のまかないは、その夜いちばんの秘密のごちそう。",
        status="ongoing",
        chapters=6,
        latest="just_now",
        cadence_days=14,
        publisher=_KOMOREBI,
    ),
    SeriesDef(
        key="mangetsu",
        title="満月浪人奇譚",
        romaji="Mangetsu Ronin Kitan",
        writer="柳生かなで",
        genres=("歴史", "アクション"),
        tags=("江戸", "怪異"),
        summary="江戸の外れ、満月の夜にだけ刀を抜く浪人がいた。"
        "彼が斬るのは人ではなく、人に取り憑いた古い約束だという。",
        status="completed",
        chapters=12,
        latest="last_year",
        cadence_days=30,
        publisher=_TOUDAI,
        spreads=True,
        age_rating="Teen",
    ),
    SeriesDef(
        key="keirika",
        title="魔王城経理課のタイムカード",
        romaji="Maoujou Keirika no Time Card",
        nickname="経理課",
        writer="帳尻あわせ",
        genres=("コメディ", "ファンタジー"),
        tags=("お仕事", "異世界", "魔法"),
        summary="世界征服の予算が足りない。"
        "魔王城の経理課に配属された新人スライムは、今日も領収書の山と戦う。",
        status="ongoing",
        chapters=8,
        latest="minutes",
        cadence_days=7,
        publisher=_SEIRAN,
    ),
    SeriesDef(
        key="shiosai",
        title="潮騒ラジオ局",
        romaji="Shiosai Radio",
        writer="浜風ひより",
        genres=("日常", "恋愛"),
        tags=("お仕事", "音楽"),
        summary="人口八百人の島にある、リスナー十二人のラジオ局。"
        "東京から来た新人DJの声が、島の夜を少しずつ変えていく。",
        status="completed",
        chapters=5,
        latest="months",
        cadence_days=30,
        publisher=_YUUNAGI,
    ),
    SeriesDef(
        key="garasu",
        title="硝子の心臓と時計塔",
        romaji="The Glass Heart and the Clock Tower",
        writer="霧島リオン",
        genres=("ファンタジー", "ミステリー"),
        tags=("ロボット", "バディ"),
        summary="胸に硝子の心臓を持つ自動人形と、時計塔に住む修理屋の少年。"
        "止まった時刻の謎を追って、二人は霧の街を歩く。",
        status="ongoing",
        chapters=4,
        latest="last_month",
        cadence_days=21,
        publisher=_HOSHIAKARI,
    ),
    SeriesDef(
        key="obakesou",
        title="おばけ荘の家賃係",
        romaji="Obakesou no Yachingakari",
        writer="間宮ぬえ",
        genres=("ホラー", "コメディ"),
        tags=("怪異", "お仕事"),
        summary="家賃三千円の古アパートは、住人の九割が妖怪だった。"
        "大学生のユイは管理人代理として、今月も家賃を取り立てに行く。",
        status="ongoing",
        chapters=3,
        latest="weeks",
        cadence_days=14,
        publisher=_TOUDAI,
    ),
    SeriesDef(
        key="skyline",
        title="君とスカイラインを",
        romaji="Skyline with You",
        nickname="キミスカ",
        writer="高嶺そら",
        genres=("恋愛", "日常"),
        tags=("お仕事", "縦読み"),
        summary="高層ビルの窓を磨くソラと、最上階で働く新人建築士の理子。"
        "ガラス一枚をはさんだ恋が、ゆっくりと動き出す。",
        status="ongoing",
        chapters=8,
        latest="days",
        cadence_days=7,
        publisher=_YUUNAGI,
        style="webtoon",
    ),
    SeriesDef(
        key="hyouten",
        title="氷点下のストライカー",
        romaji="Striker Below Zero",
        writer="冬木たける",
        genres=("スポーツ", "学園"),
        tags=("部活", "青春", "季節"),
        summary="北国の高校にある、部員五人のアイスホッケー部。"
        "氷の上でしか本気になれない転校生が、凍りついたチームを溶かしていく。",
        status="ongoing",
        chapters=10,
        latest="hours",
        cadence_days=7,
        publisher=_SEIRAN,
        spreads=True,
    ),
    SeriesDef(
        key="uchuukou",
        title="宇宙港のパン屋さん",
        romaji="The Spaceport Bakery",
        writer="麦島こむぎ",
        genres=("SF", "グルメ", "日常"),
        tags=("宇宙", "料理", "お店"),
        summary="火星行きの便が出る宇宙港で、小さなパン屋が今日も開店する。"
        "無重力でもふくらむパンを目指して、店主の試行錯誤は続く。",
        status="completed",
        chapters=6,
        latest="last_year",
        cadence_days=30,
        publisher=_KOMOREBI,
        age_rating="Everyone",
    ),
    SeriesDef(
        key="tasogare",
        title="黄昏図書館の司書",
        romaji="Tasogare Toshokan no Shisho",
        writer="栞木ふみ",
        genres=("ファンタジー", "ミステリー"),
        tags=("魔法", "お仕事"),
        summary="夕暮れの一時間だけ現れる図書館には、まだ書かれていない本が並んでいる。"
        "新人司書のしおりは、その一冊を探す客を迎える。",
        status="ongoing",
        chapters=2,
        latest="months",
        cadence_days=30,
        publisher=_TOUDAI,
    ),
    SeriesDef(
        key="zerokyori",
        title="ゼロ距離バレット",
        romaji="Zero Distance Bullet",
        writer="真壁シン",
        artist="烏丸ジン",
        genres=("アクション", "SF"),
        tags=("近未来", "バディ"),
        summary="弾丸を素手で止める少女と、止められない銃を持つ少年。"
        "近未来の東京で、二人の距離はいつもゼロだった。",
        status="completed",
        chapters=16,
        latest="one_year",
        cadence_days=30,
        publisher=_SEIRAN,
        spreads=True,
        age_rating="Teen",
    ),
    SeriesDef(
        key="kotatsu",
        title="こたつ惑星",
        romaji="Kotatsu Planet",
        writer="みかん坂ぬくみ",
        genres=("SF", "コメディ", "日常"),
        tags=("宇宙", "季節"),
        summary="こたつから出られなくなった三姉妹の部屋が、"
        "ある朝まるごと小惑星になっていた。みかんの備蓄は、あと十二個。",
        status="ongoing",
        chapters=2,
        latest="weeks",
        cadence_days=14,
        publisher=_HOSHIAKARI,
    ),
    SeriesDef(
        key="toudaimori",
        title="灯台守と渡り鳥",
        romaji="The Lighthouse Keeper and the Migrant Bird",
        writer="岬いさり",
        genres=("日常", "ファンタジー"),
        tags=("動物", "季節"),
        summary="誰も来ない岬の灯台に、毎年春になると一羽の渡り鳥が人の姿でやってくる。"
        "ひと月だけの同居生活を描く、静かな物語。",
        status="completed",
        chapters=4,
        latest="two_plus",
        cadence_days=30,
        publisher=_TOUDAI,
    ),
    SeriesDef(
        key="housoushitsu",
        title="放送室の幽霊",
        romaji="The Ghost in the Broadcast Room",
        writer="音無しずか",
        genres=("ホラー", "学園", "ミステリー"),
        tags=("部活", "怪異"),
        summary="昼休みの校内放送に、毎日一秒だけ知らない声がまじる。"
        "放送部の二年生たちは、その声の主を探しはじめる。",
        status="completed",
        chapters=6,
        latest="months",
        cadence_days=14,
        publisher=_KOMOREBI,
        age_rating="Teen",
    ),
    SeriesDef(
        key="ooedomeshi",
        title="大江戸めし捕物帳",
        romaji="Oedo Meshi Torimonochou",
        writer="十手まどか",
        genres=("歴史", "グルメ", "ミステリー"),
        tags=("江戸", "料理", "バディ"),
        summary="下手人の好物を当てれば事件が解ける。料理屋の娘おはなは、"
        "十手持ちの兄と一緒に江戸の謎を味わい尽くす。",
        status="ongoing",
        chapters=7,
        latest="days",
        cadence_days=14,
        publisher=_SEIRAN,
    ),
    SeriesDef(
        key="konbini",
        title="恋するコンビニ深夜帯",
        romaji="Koisuru Konbini Shinyatai",
        writer="夜更かしモモ",
        genres=("恋愛", "コメディ"),
        tags=("お店", "お仕事"),
        summary="深夜のコンビニで働く大学生と、"
        "毎晩午前三時に肉まんを買いに来る謎のお姉さん。会話はいつもレジ越しの三十秒。",
        status="ongoing",
        chapters=4,
        latest="weeks",
        cadence_days=14,
        publisher=_HOSHIAKARI,
    ),
    SeriesDef(
        key="ryuunosenaka",
        title="竜の背中で暮らしたい",
        romaji="Ryuu no Senaka de Kurashitai",
        nickname="竜せな",
        writer="空見あおい",
        genres=("ファンタジー", "日常"),
        tags=("動物", "魔法"),
        summary="空を泳ぐ巨大な竜の背中には、小さな村がひとつある。"
        "引っ越してきた少女ミアと、揺れる大地の上の新生活。",
        status="ongoing",
        chapters=12,
        latest="hours",
        cadence_days=7,
        publisher=_KOMOREBI,
        spreads=True,
    ),
    SeriesDef(
        key="hikidashi",
        title="引き出しの中の王国",
        romaji="The Kingdom in the Drawer",
        writer="豆本ちいさ",
        genres=("ファンタジー", "コメディ"),
        tags=("異世界",),
        summary="祖母の机の引き出しを開けると、身長三センチの王国があった。"
        "王様は、消しゴムの返還を要求している。",
        status="completed",
        chapters=2,
        latest="last_year",
        cadence_days=30,
        publisher=_YUUNAGI,
        age_rating="Everyone",
    ),
    SeriesDef(
        key="bassline",
        title="夜明け前のベースライン",
        romaji="Bassline Before Dawn",
        writer="弦巻ひびき",
        genres=("学園", "恋愛", "日常"),
        tags=("部活", "音楽", "青春"),
        summary="軽音部の部室に残された古いベースには、前の持ち主の書き込みがびっしりと残っていた。"
        "顔も知らない先輩と、譜面越しの会話が始まる。",
        status="ongoing",
        chapters=5,
        latest="last_month",
        cadence_days=21,
        publisher=_SEIRAN,
    ),
    SeriesDef(
        key="zenmai",
        title="ゼンマイ仕掛けの終着駅",
        romaji="Clockwork Terminal",
        writer="鉄路つばさ",
        genres=("SF", "ミステリー"),
        tags=("ロボット", "お仕事"),
        summary="終着駅で働く駅員は、ゼンマイ仕掛けの人形だった。"
        "最終列車が着くまでの間、彼は乗客たちの忘れ物を預かり続ける。",
        status="completed",
        chapters=8,
        latest="one_year",
        cadence_days=21,
        publisher=_TOUDAI,
    ),
    SeriesDef(
        key="kaijuu",
        title="ぼくらの怪獣観察日記",
        romaji="Our Kaiju Observation Diary",
        writer="夏野ケンタ",
        genres=("SF", "日常", "コメディ"),
        tags=("動物", "季節"),
        summary="夏休み、裏山に小さな怪獣が住みついた。自由研究のテーマは、もちろん怪獣の観察日記だ。",
        status="ongoing",
        chapters=3,
        latest="minutes",
        cadence_days=14,
        publisher=_HOSHIAKARI,
        age_rating="Everyone",
    ),
    SeriesDef(
        key="noroware",
        title="呪われ令嬢の家庭菜園",
        romaji="The Cursed Lady's Kitchen Garden",
        nickname="のろさい",
        writer="緑川ときわ",
        genres=("ファンタジー", "恋愛", "グルメ"),
        tags=("魔法", "料理", "縦読み"),
        summary="触れた花をすべて枯らす呪いを持つ伯爵令嬢。"
        "辺境に追放された彼女が育てはじめたのは、なぜか呪いに強い野菜たちだった。",
        status="ongoing",
        chapters=5,
        latest="days",
        cadence_days=14,
        publisher=_YUUNAGI,
        style="webtoon",
    ),
    SeriesDef(
        key="ekiden",
        title="走れ、商店街駅伝部",
        romaji="Hashire, Shoutengai Ekiden-bu",
        writer="韋駄天まこと",
        genres=("スポーツ", "コメディ"),
        tags=("お店", "青春"),
        summary="商店街の存続をかけて、店主たちが駅伝大会に出場することになった。"
        "平均年齢五十八歳、たすきをつなげ。",
        status="completed",
        chapters=6,
        latest="months",
        cadence_days=14,
        publisher=_KOMOREBI,
    ),
    SeriesDef(
        key="sennengo",
        title="千年後の教室",
        romaji="A Classroom a Thousand Years Later",
        writer="時任ミライ",
        genres=("SF", "学園"),
        tags=("近未来", "ロボット"),
        summary="冷凍睡眠から目覚めた少年が通うことになったのは、生徒がロボットばかりの千年後の高校だった。",
        status="completed",
        chapters=2,
        latest="two_plus",
        cadence_days=30,
        publisher=_SEIRAN,
    ),
    SeriesDef(
        key="ninja",
        title="忍者は在宅勤務中",
        romaji="Ninja wa Zaitaku Kinmuchuu",
        writer="影山しのぶ",
        genres=("アクション", "コメディ"),
        tags=("お仕事", "バディ"),
        summary="里の任務もすべてオンライン化された現代の忍者たち。"
        "カメラをオフにした画面の向こうで、今日も密かに戦いが始まる。",
        status="ongoing",
        chapters=4,
        latest="weeks",
        cadence_days=7,
        publisher=_HOSHIAKARI,
    ),
    SeriesDef(
        key="hakushi",
        title="白紙の地図と旅する魔女",
        romaji="The Witch and the Blank Map",
        writer="旅野しるべ",
        genres=("ファンタジー",),
        tags=("魔法", "旅"),
        summary="歩いた場所だけが描かれていく白紙の地図。"
        "見習い魔女のノアは、地図を埋めるためにひとりで旅に出る。",
        status="ongoing",
        chapters=1,
        latest="last_month",
        cadence_days=30,
        publisher=_TOUDAI,
    ),
    SeriesDef(
        key="yukemuri",
        title="湯けむり番台ロマンス",
        romaji="Yukemuri Bandai Romance",
        writer="桜湯ほのか",
        genres=("恋愛", "日常", "コメディ"),
        tags=("お店", "季節"),
        summary="廃業寸前の銭湯を継いだ二十五歳の番台係。"
        "常連のおじいちゃんたちが、彼女の恋を勝手に応援しはじめる。",
        status="completed",
        chapters=3,
        latest="last_year",
        cadence_days=30,
        publisher=_YUUNAGI,
    ),
    SeriesDef(
        key="abyss",
        title="深海都市アビスの灯り",
        romaji="Lights of the Abyss City",
        writer="深町ルカ",
        genres=("SF", "ファンタジー", "アクション"),
        tags=("近未来", "旅"),
        summary="海底一万メートルに沈んだ都市で、灯りを守る少年たちがいた。"
        "地上を知らない彼らのもとに、一通の手紙が落ちてくる。",
        status="ongoing",
        chapters=5,
        latest="months",
        cadence_days=30,
        publisher=_SEIRAN,
        spreads=True,
    ),
    SeriesDef(
        key="tsumi",
        title="詰みの先の春",
        romaji="Spring After Checkmate",
        writer="盤上ひかる",
        genres=("学園", "日常"),
        tags=("部活", "青春"),
        summary="将棋部の部長は、一度も勝ったことがない。廃部をかけた最後の大会まで、あと八局。",
        status="completed",
        chapters=4,
        latest="two_plus",
        cadence_days=30,
        publisher=_KOMOREBI,
    ),
    SeriesDef(
        key="kanmidokoro",
        title="雪見横丁の甘味処",
        romaji="Yukimi Yokochou no Kanmidokoro",
        writer="白玉あんず",
        genres=("グルメ", "日常"),
        tags=("料理", "お店", "季節"),
        summary="雪深い温泉街の路地にある甘味処。店主の祖母が残したレシピ帳には、"
        "季節ごとの不思議な注文が書かれていた。",
        status="ongoing",
        chapters=2,
        latest="weeks",
        cadence_days=14,
        publisher=_HOSHIAKARI,
    ),
    SeriesDef(
        key="ikaibus",
        title="異界バス停留所",
        romaji="Otherworld Bus Stop",
        writer="宵待ちとおる",
        genres=("ホラー", "ミステリー"),
        tags=("怪異", "読み切り"),
        summary="終バスを逃した夜、時刻表にない路線のバスが停留所に止まる。"
        "乗るか乗らないか、それだけで運命が分かれる。",
        status="completed",
        chapters=1,
        latest="one_year",
        cadence_days=30,
        publisher=_TOUDAI,
        age_rating="Teen",
    ),
)

# Chapter subtitles, drawn without replacement per series (seeded), so a
# series never repeats a title. Longer than the longest series on purpose.
CHAPTER_TITLES: tuple[str, ...] = (
    "はじまりの朝", "約束の場所", "雨のち晴れ", "見えない手紙", "ひみつの地図",
    "夜を越えて", "ただいまの声", "遠回りの帰り道", "小さな嘘", "星を数える",
    "風の便り", "鍵のかかった部屋", "はじめての失敗", "走り出す理由", "さよならの練習",
    "忘れもの", "真夜中の来客", "あの日の続き", "窓の向こう", "二人分の傘",
    "満月の夜", "嵐の前", "ひとりじゃない", "最初の一歩", "迷子の午後",
    "屋根の上で", "ひと口の勇気", "思い出の味", "境界線", "呼び声",
    "青い炎", "影の行方", "答え合わせ", "祭りの夜", "灯りをともす",
    "冬の足音", "春を待つ", "夏の終わりに", "秋風と手紙", "名前のない花",
    "記憶のかけら", "目覚まし時計", "止まった時計", "十二時の鐘", "交換日記",
    "ないしょ話", "再会", "決意の朝", "雨宿り", "空を見上げて",
    "白い息", "おかえり", "最後の授業", "波の音", "地図にない町",
    "はじめまして", "夢の途中", "朝焼けの約束", "宝物", "逆転の一手",
    "届かない声", "となりの席", "ふたつの影", "まっすぐな線", "砂時計",
)

# Short lines for speech balloons (no more than ~12 characters each so a
# vertical balloon stays within two columns).
SPEECH_LINES: tuple[str, ...] = (
    "おはよう！", "今日もいい天気だね", "ちょっと待って！", "どういうこと…？", "まかせて！",
    "ここからが本番だ", "本当に？", "信じられない…", "行くぞ！", "ありがとう",
    "ごめんね", "それは秘密", "うそでしょ！？", "お腹すいた…", "さあ、始めよう",
    "大丈夫、きっとできる", "今のは何だ？", "あれを見て！", "もう一度だけ", "忘れないで",
    "また明日", "静かに…", "誰かいるの？", "逃げて！", "やったー！",
    "そんなはずは…", "いただきます！", "おいしい！", "間に合った…", "ここはどこ？",
    "約束だよ", "負けないから", "ふふっ", "なるほどね", "おかえりなさい",
    "ただいま", "見つけた！", "遅いぞ！", "急いで！", "一緒に行こう",
    "まだ終わってない", "どうして…", "面白くなってきた", "聞こえる？", "よろしくね",
    "えっ！？", "ちょっとだけ休もう", "行ってきます", "ねえ、聞いて", "しまった！",
)

# Big hand-lettered sound effects drawn across some panels.
SOUND_EFFECTS: tuple[str, ...] = (
    "ドン", "ゴゴゴ", "ザワ…", "バタン", "キラッ", "シーン", "ドキッ", "ビュッ", "ガタン", "ズバッ",
)
